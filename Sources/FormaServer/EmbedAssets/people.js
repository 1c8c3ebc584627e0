// People (/embed/people, docs/community.md): find people of the company by name (or a user id), see their public profile, follow or unfollow them (a private profile makes a follow a
// request), give them points with a message, and cheer the completed workouts of the people followed, from the feed.
// A gift carries an idempotency key made once per attempt, so a retried press never gives twice; after a gift the
// host hears `points_changed`.
import { h, show } from './dom.js';
import { t, formatDate } from './i18n.js';
import { newAttemptKey } from './profile.js';

export class PeopleView {
  constructor(context) {
    this.context = context;
    this.giftKey = null;
  }

  async open() {
    show(h('p', { class: 'status' }, t('common.loading')));
    this.status = h('p', { class: 'status', id: 'people-status', role: 'status' });
    this.card = h('div', { id: 'person', class: 'person-card' });
    this.results = h('ul', { id: 'results', 'aria-label': t('people.results') });
    this.following = h('ul', { id: 'following', 'aria-labelledby': 'following-heading' });
    this.feed = h('ul', { id: 'feed', 'aria-labelledby': 'feed-heading' });
    this.query = h('input', { id: 'find-user', name: 'userId', type: 'text', maxlength: 200, required: true,
      autocomplete: 'off', 'aria-describedby': 'find-hint find-error' });
    this.findError = h('p', { class: 'field-error', id: 'find-error' });
    const form = h('form', { id: 'find', 'aria-labelledby': 'find-heading', novalidate: true },
      h('h2', { id: 'find-heading' }, t('people.find')),
      h('div', { class: 'field' }, h('label', { for: 'find-user' }, t('people.userId')), this.query,
        h('p', { class: 'meta', id: 'find-hint' }, t('people.userIdHint')), this.findError),
      h('div', { class: 'actions' }, h('button', { id: 'find-button', class: 'primary', type: 'submit' }, t('people.findButton'))));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.find(this.query.value.trim());
    });
    try {
      await Promise.all([this.drawFollowing(), this.drawFeed()]);
    } catch (error) {
      this.context.fail('api', t('error.prefixed', { field: 'people', message: error.message }));
      return;
    }
    show(h('section', { class: 'people-page' },
      h('h1', { id: 'people-page-heading' }, t('people.heading')),
      form, this.results, this.card, this.status,
      h('h2', { id: 'following-heading' }, t('people.following')), this.following,
      h('h2', { id: 'feed-heading' }, t('people.feed')), this.feed,
      h('div', { class: 'actions' },
        h('button', { id: 'exit', class: 'quiet', onClick: () => this.context.bridge.post('exit_kinestex', {}) },
          t('common.close')))));
  }

  async drawFollowing() {
    const page = await this.context.api.get('/v1/me/following?limit=50');
    this.following.replaceChildren(...(page.items.length === 0
      ? [h('li', { class: 'empty' }, t('people.noFollowing'))]
      : page.items.map((person) => h('li', { dataset: { userId: person.userId } },
        h('button', { class: 'link open-person', onClick: () => this.open_(person.userId) },
          person.displayName || t('people.athlete'))))));
  }

  async drawFeed() {
    const page = await this.context.api.get('/v1/me/feed?limit=20');
    this.feed.replaceChildren(...(page.items.length === 0
      ? [h('li', { class: 'empty' }, t('people.noFeed'))]
      : page.items.map((item) => this.feedItem(item))));
  }

  feedItem(item) {
    const name = item.displayName || t('people.athlete');
    const when = formatDate(item.at, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
    if (item.kind === 'challenge_score') {
      const score = item.challenge;
      return h('li', { dataset: { feedId: item.id } },
        h('span', { class: 'name' }, t(score.personalBest ? 'people.scoreBest' : 'people.score',
          { name, count: score.reps, seconds: score.seconds })),
        h('span', { class: 'meta' }, when));
    }
    const run = item.workout;
    const cheers = h('span', { class: 'meta cheers' }, t('people.cheers', { count: run.cheers }));
    const button = h('button', { class: 'cheer', 'aria-label': t('people.cheerNamed', { name }),
      disabled: run.cheeredByMe, onClick: () => this.cheer(item, button, cheers) },
    run.cheeredByMe ? t('people.cheered') : t('people.cheer'));
    return h('li', { dataset: { feedId: item.id, runId: run.runId } },
      h('span', { class: 'name' }, t('people.workoutDone', { name, workout: run.workoutName || t('people.aWorkout') })),
      h('span', { class: 'meta' }, when), cheers, button);
  }

  async cheer(item, button, cheers) {
    button.disabled = true;
    try {
      await this.context.api.request('PUT', `/v1/runs/${encodeURIComponent(item.workout.runId)}/cheer`);
    } catch (error) {
      button.disabled = false;
      this.status.textContent = t('people.notCheered', { message: error.message });
      return;
    }
    item.workout.cheers += item.workout.cheeredByMe ? 0 : 1;
    item.workout.cheeredByMe = true;
    cheers.textContent = t('people.cheers', { count: item.workout.cheers });
    button.textContent = t('people.cheered');
    this.status.textContent = t('people.cheeredName', { name: item.displayName || t('people.athlete') });
  }

  // Searches display names (GET /v1/people?q=); with no name matching, tries the text as a user id, which a host
  // app may hand its person to type. Each person found opens their profile.
  async find(text) {
    this.findError.textContent = '';
    this.query.removeAttribute('aria-invalid');
    if (!text) return this.findProblem(t('people.userIdMissing'));
    let found;
    try {
      found = await this.context.api.get(`/v1/people?q=${encodeURIComponent(text)}&limit=20`);
    } catch (error) {
      return this.findProblem(error.message);
    }
    if (found.items.length === 0) {
      try {
        await this.context.api.get(`/v1/people/${encodeURIComponent(text)}`);
        return this.open_(text);
      } catch (error) {
        this.results.replaceChildren();
        return this.findProblem(error.status === 404 ? t('people.notFound', { userId: text }) : error.message);
      }
    }
    this.results.replaceChildren(...found.items.map((person) => h('li', { dataset: { userId: person.userId } },
      h('button', { class: 'link open-person', onClick: () => this.open_(person.userId) }, person.displayName),
      h('span', { class: 'meta' }, t(`people.state.${person.followedByMe}`)))));
    this.status.textContent = t('people.foundCount', { count: found.items.length });
  }

  findProblem(message) {
    this.query.setAttribute('aria-invalid', 'true');
    this.findError.textContent = message;
    this.query.focus();
  }

  async open_(userId) {
    let person;
    try {
      person = await this.context.api.get(`/v1/people/${encodeURIComponent(userId)}`);
    } catch (error) {
      this.status.textContent = error.message;
      return;
    }
    this.giftKey = null;
    this.drawCard(userId, person);
  }

  drawCard(userId, person) {
    const name = person.displayName || t('people.athlete');
    const state = person.followedByMe;
    const followButton = h('button', { id: 'follow', class: state === 'none' ? 'primary' : null,
      onClick: () => this.follow(userId, state) },
    state === 'none' ? t('people.follow') : (state === 'requested' ? t('people.withdraw') : t('people.unfollow')));
    this.points = h('input', { id: 'gift-points', type: 'number', min: 1, max: 1000000, required: true, inputmode: 'numeric',
      'aria-describedby': 'gift-error' });
    this.message = h('input', { id: 'gift-message', type: 'text', maxlength: 200, 'aria-describedby': 'gift-error' });
    this.giftError = h('p', { class: 'field-error', id: 'gift-error', role: 'alert' });
    const invalidate = () => { this.giftKey = null; };
    this.points.addEventListener('input', invalidate);
    this.message.addEventListener('input', invalidate);
    const gift = h('form', { id: 'gift', 'aria-labelledby': 'gift-heading', novalidate: true },
      h('h3', { id: 'gift-heading' }, t('people.giftHeading', { name })),
      h('div', { class: 'field' }, h('label', { for: 'gift-points' }, t('people.giftPoints')), this.points),
      h('div', { class: 'field' }, h('label', { for: 'gift-message' }, t('people.giftMessage')), this.message),
      this.giftError,
      h('div', { class: 'actions' }, h('button', { id: 'gift-button', class: 'primary', type: 'submit' }, t('people.giftButton'))));
    gift.addEventListener('submit', (event) => {
      event.preventDefault();
      this.gift(userId, name);
    });
    this.card.replaceChildren(
      h('h2', { id: 'person-heading', tabindex: '-1' }, name),
      h('p', { class: 'meta', id: 'person-counts' }, t('people.counts', { count: person.followers, following: person.following })),
      h('p', { class: 'meta', id: 'person-state' }, t(`people.state.${state}`) + (person.followsMe ? ` ${t('people.followsYou')}` : '')),
      followButton, gift);
    this.card.querySelector('#person-heading').focus();
  }

  async follow(userId, state) {
    try {
      if (state === 'none') await this.context.api.request('PUT', `/v1/me/following/${encodeURIComponent(userId)}`);
      else await this.context.api.request('DELETE', `/v1/me/following/${encodeURIComponent(userId)}`);
    } catch (error) {
      this.status.textContent = t('people.notFollowed', { message: error.message });
      return;
    }
    const person = await this.context.api.get(`/v1/people/${encodeURIComponent(userId)}`);
    this.drawCard(userId, person);
    const name = person.displayName || t('people.athlete');
    this.status.textContent = t(`people.now.${person.followedByMe}`, { name });
    await Promise.all([this.drawFollowing(), this.drawFeed()]);
  }

  async gift(userId, name) {
    this.giftError.textContent = '';
    this.points.removeAttribute('aria-invalid');
    const points = Number.parseInt(this.points.value, 10);
    if (!Number.isInteger(points) || points < 1 || points > 1000000) {
      this.points.setAttribute('aria-invalid', 'true');
      this.giftError.textContent = t('people.giftPointsInvalid');
      this.points.focus();
      return;
    }
    if (!this.giftKey) this.giftKey = newAttemptKey();
    const body = { points, idempotencyKey: this.giftKey };
    if (this.message.value.trim()) body.message = this.message.value.trim();
    let gift;
    try {
      gift = await this.context.api.post(`/v1/people/${encodeURIComponent(userId)}/gifts`, body);
    } catch (error) {
      const kind = String((error.problem && error.problem.type) || '').replace('urn:forma:problem:', '');
      if (kind === 'insufficient-points') this.giftError.textContent = t('people.giftShort', { count: points, balance: error.problem.balance });
      else this.giftError.textContent = t('people.notGiven', { message: error.message });
      if (kind === 'idempotency-key-reused') this.giftKey = null;
      return;
    }
    this.giftKey = null;
    this.points.value = '';
    this.message.value = '';
    this.context.bridge.post('points_changed', { balance: gift.balance, change: -gift.points, reason: 'gift' });
    this.status.textContent = t('people.given', { count: gift.points, name, balance: gift.balance });
  }
}
