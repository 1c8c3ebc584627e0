// The person's profile (/embed/profile, docs/community.md): their points balance and latest entries, the company's
// items on sale with Buy, today's missions with their progress, the workout streak and the follow counts.
// A purchase carries an idempotency key made once per attempt: a retried click (after a lost answer, say) sends the
// same key, and the server answers the first purchase again instead of charging twice. The host hears
// `points_changed`, `purchase_completed`, and `mission_completed` for a mission the page sees newly completed.
import { h, show } from './dom.js';
import { t, formatDate } from './i18n.js';

export function newAttemptKey() {
  if (window.crypto && typeof window.crypto.randomUUID === 'function') return window.crypto.randomUUID();
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export class ProfileView {
  constructor(context) {
    this.context = context;
    this.balance = null;
    // missions already completed when the page first saw them, or told to the host since
    this.completed = null;
    // one key per purchase attempt, by item id: kept until the attempt is answered
    this.attempts = new Map();
  }

  async open() {
    show(h('p', { class: 'status' }, t('common.loading')));
    this.status = h('p', { class: 'status', id: 'profile-status', role: 'status' });
    this.balanceLine = h('p', { class: 'balance', id: 'balance' });
    this.entries = h('ul', { class: 'entries', id: 'entries', 'aria-labelledby': 'points-heading' });
    this.items = h('ul', { class: 'items', id: 'items', 'aria-labelledby': 'items-heading' });
    this.missions = h('ul', { class: 'missions', id: 'missions', 'aria-labelledby': 'missions-heading' });
    this.streak = h('p', { id: 'streak' });
    this.follows = h('p', { id: 'follows' });
    try {
      await this.refresh();
    } catch (error) {
      this.context.fail('api', t('error.prefixed', { field: 'profile', message: error.message }));
      return;
    }
    show(h('section', { class: 'profile-page' },
      h('h1', { id: 'profile-heading' }, t('profile.heading')),
      h('h2', { id: 'points-heading' }, t('profile.points')), this.balanceLine, this.entries,
      this.status,
      h('h2', { id: 'items-heading' }, t('profile.items')), this.items,
      h('h2', { id: 'missions-heading' }, t('profile.missions')), this.missions,
      h('h2', { id: 'streak-heading' }, t('profile.streak')), this.streak,
      h('h2', { id: 'people-heading' }, t('profile.people')), this.follows,
      h('div', { class: 'actions' },
        h('button', { id: 'exit', class: 'quiet', onClick: () => this.context.bridge.post('exit_kinestex', {}) },
          t('common.close')))));
  }

  async refresh() {
    const api = this.context.api;
    const [points, items, missions, activity, me] = await Promise.all([
      api.get('/v1/me/points?limit=5'), api.get('/v1/items'), api.get('/v1/me/missions'),
      api.get('/v1/me/activity/today'), api.get('/v1/me')]);
    this.drawPoints(points);
    this.drawItems(items.items);
    this.drawMissions(missions.missions);
    this.streak.textContent = t('profile.streakLine', { count: activity.streak.current, longest: activity.streak.longest });
    this.follows.textContent = t('profile.followLine', { count: me.followers, following: me.following });
  }

  drawPoints(points) {
    this.balance = points.balance;
    this.balanceLine.textContent = t('profile.balance', { count: points.balance });
    this.entries.replaceChildren(...(points.entries.length === 0
      ? [h('li', { class: 'empty' }, t('profile.noEntries'))]
      : points.entries.map((entry) => h('li', {},
        h('span', { class: 'name' }, t(entry.amount >= 0 ? 'profile.entryIn' : 'profile.entryOut',
          { count: Math.abs(entry.amount), what: this.entryReason(entry) })),
        h('span', { class: 'meta' }, formatDate(entry.createdAt, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }))))));
  }

  entryReason(entry) {
    if (entry.kind === 'purchase') return t('profile.kind.purchase', { name: entry.itemName || '', count: entry.quantity || 1 });
    if (entry.kind === 'mission_completed') return t('profile.kind.mission_completed', { id: entry.missionId || '' });
    const known = ['workout_completed', 'top_up', 'gift', 'reversal', 'account_closed'];
    return t(known.includes(entry.kind) ? `profile.kind.${entry.kind}` : 'profile.kind.other');
  }

  drawItems(items) {
    if (items.length === 0) {
      this.items.replaceChildren(h('li', { class: 'empty' }, t('profile.noItems')));
      return;
    }
    this.items.replaceChildren(...items.map((item) => {
      const quantityId = `quantity-${item.id}`;
      const quantity = h('input', { id: quantityId, class: 'quantity', type: 'number', min: 1, max: 99, value: 1, inputmode: 'numeric' });
      const error = h('p', { class: 'field-error', id: `buy-error-${item.id}`, role: 'alert' });
      quantity.setAttribute('aria-describedby', error.id);
      // a new quantity is a new attempt
      quantity.addEventListener('input', () => this.attempts.delete(item.id));
      const price = h('span', { class: 'meta price' }, t('profile.price', { count: item.price }));
      const row = h('li', { dataset: { itemId: item.id } },
        h('span', { class: 'name' }, item.name), price,
        h('div', { class: 'field' }, h('label', { for: quantityId }, t('profile.quantity')), quantity),
        h('button', { class: 'buy primary', 'aria-label': t('profile.buyNamed', { name: item.name }),
          onClick: (event) => this.buy(item, quantity, price, error, event.currentTarget) }, t('profile.buy')),
        error);
      return row;
    }));
  }

  async buy(item, quantityInput, priceLine, errorLine, button) {
    errorLine.textContent = '';
    quantityInput.removeAttribute('aria-invalid');
    const quantity = Number.parseInt(quantityInput.value, 10);
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > 99) {
      quantityInput.setAttribute('aria-invalid', 'true');
      errorLine.textContent = t('profile.quantityInvalid');
      quantityInput.focus();
      return;
    }
    if (!this.attempts.has(item.id)) this.attempts.set(item.id, newAttemptKey());
    const key = this.attempts.get(item.id);
    button.disabled = true;
    let purchase;
    try {
      purchase = await this.context.api.post('/v1/me/purchases', {
        itemId: item.id, quantity, unitPrice: item.price, platform: 'web', idempotencyKey: key });
    } catch (error) {
      button.disabled = false;
      const kind = String((error.problem && error.problem.type) || '').replace('urn:forma:problem:', '');
      if (kind === 'price-changed' && Number.isInteger(error.problem.currentPrice)) {
        // nothing was stored: the same attempt goes on at the new price once the person presses Buy again
        item.price = error.problem.currentPrice;
        priceLine.textContent = t('profile.price', { count: item.price });
        errorLine.textContent = t('profile.priceChanged', { count: item.price });
      } else if (kind === 'insufficient-points') {
        errorLine.textContent = t('profile.insufficient', { count: quantity * item.price, balance: error.problem.balance ?? this.balance });
      } else if (kind === 'idempotency-key-reused') {
        this.attempts.delete(item.id);
        errorLine.textContent = t('profile.notBought', { message: error.message });
      } else {
        // a lost answer or a busy server: the key is kept, so pressing Buy again cannot charge twice
        errorLine.textContent = t('profile.notBought', { message: error.message });
      }
      return;
    }
    this.attempts.delete(item.id);
    button.disabled = false;
    quantityInput.value = '1';
    this.context.bridge.post('purchase_completed', {
      itemId: purchase.itemId, quantity: purchase.quantity, unitPrice: purchase.unitPrice, balance: purchase.balance });
    this.context.bridge.post('points_changed', { balance: purchase.balance, change: -purchase.total, reason: 'purchase' });
    await this.reload();
    this.status.textContent = t('profile.bought', { name: purchase.itemName, count: purchase.quantity, balance: this.balance });
  }

  // Reads the points and missions again; tells the host about missions newly completed (and the points they paid).
  async reload() {
    const api = this.context.api;
    // missions first: reading them completes (and pays) any met since, so the balance read after includes it
    const missions = await api.get('/v1/me/missions');
    const points = await api.get('/v1/me/points?limit=5');
    this.drawPoints(points);
    this.drawMissions(missions.missions);
  }

  drawMissions(missions) {
    const first = this.completed === null;
    if (first) this.completed = new Set();
    let paid = 0;
    for (const mission of missions) {
      if (!mission.completed || this.completed.has(mission.id)) continue;
      this.completed.add(mission.id);
      if (first) continue;
      paid += mission.points;
      this.context.bridge.post('mission_completed', { missionId: mission.id, points: mission.points });
    }
    if (paid > 0) this.context.bridge.post('points_changed', { balance: this.balance, change: paid, reason: 'mission_completed' });
    this.missions.replaceChildren(...(missions.length === 0
      ? [h('li', { class: 'empty' }, t('profile.noMissions'))]
      : missions.map((mission) => h('li', { dataset: { missionId: mission.id }, class: mission.completed ? 'done' : null },
        h('span', { class: 'name' }, mission.title),
        h('span', { class: 'meta' }, t(mission.completed ? 'profile.missionDone' : 'profile.missionProgress',
          { progress: mission.progress, count: mission.target, points: mission.points }))))));
  }
}
