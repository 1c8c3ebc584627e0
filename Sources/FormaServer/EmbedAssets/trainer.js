// The AI trainer's chat (/embed/trainer, docs/trainer.md "The page"): the conversation of /v1/trainer/conversations
// as a message list, the current question's quick replies and a typed answer; today's workout played inline with
// the workout player; the next session told to the host as `trainer_schedule_next_workout`.
import { h, sleep } from './dom.js';
import { WorkoutPlayer } from './player.js';
import { dose } from './workout-summary.js';
import { t, formatMinutes } from './i18n.js';

const RETRIES = 3; // sends of one answer after a network error or a 5xx before the person is asked to send again

// A fresh client id for each answer (crypto.randomUUID exists only in secure contexts).
function clientId() {
  if (window.crypto && typeof window.crypto.randomUUID === 'function') return window.crypto.randomUUID();
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

// The host's pre-fill from the page URL (age, heightCm, weightKg, gender); omitted, empty, zero or unreadable values
// are left out, so the trainer asks for them.
export function preFill(params) {
  const body = {};
  const number = (name) => {
    const text = (params.get(name) || '').trim();
    const value = Number(text);
    return text && Number.isFinite(value) && value > 0 ? value : null;
  };
  const age = number('age');
  if (age !== null) body.age = Math.round(age);
  const height = number('heightCm');
  if (height !== null) body.heightCm = height;
  const weight = number('weightKg');
  if (weight !== null) body.weightKg = weight;
  const gender = (params.get('gender') || '').trim().toLowerCase();
  if (gender) body.gender = gender;
  const zone = (params.get('timeZone') || '').trim() || Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone) body.timeZone = zone;
  return body;
}

// Examples of what the server reads for a number with a unit (catalogue keys `trainer.example.<unit>`).
const PLACEHOLDERS = ['years', 'cm', 'kg', 'minutes'];

export class TrainerView {
  constructor(context) {
    this.context = context;
    this.conversation = null;
    this.rendered = 0; // messages already in the list
    this.selected = new Set(); // picked quick replies of a multiple-choice question
    this.pending = null; // {key, clientId} of an answer whose sending failed: sent again with the same id
    this.sending = false;
    this.player = null;
  }

  get api() {
    return this.context.api;
  }

  async open() {
    const app = document.getElementById('app');
    // The page's own live region announces the trainer's new messages; the whole view is not read out again.
    this.appLive = app.getAttribute('aria-live');
    app.setAttribute('aria-live', 'off');
    this.list = h('ol', { id: 'messages', class: 'messages', 'aria-label': t('trainer.conversation') });
    this.announcer = h('p', { id: 'announcer', class: 'visually-hidden', 'aria-live': 'polite' });
    this.composer = h('div', { id: 'composer', class: 'composer' });
    this.stage = h('div', { id: 'trainer-player', class: 'inline-player', hidden: true });
    app.replaceChildren(
      h('section', { class: 'trainer', 'aria-labelledby': 'trainer-title' },
        h('div', { class: 'trainer-head' },
          h('h1', { id: 'trainer-title' }, t('trainer.title')),
          h('button', { id: 'close', class: 'quiet', onClick: () => this.context.bridge.post('exit_kinestex', {}) }, t('common.close'))),
        this.list, this.announcer, this.composer, this.stage));
    this.composer.append(h('p', { class: 'status' }, t('common.loading')));
    try {
      const conversation = await this.api.post('/v1/trainer/conversations', preFill(this.context.params));
      this.update(conversation, { announce: false });
    } catch (error) {
      this.context.fail(error.status === 422 ? 'configuration' : 'api', t('error.prefixed', { field: 'trainer', message: error.message }));
    }
  }

  leave() {
    if (this.player) this.player.exit('player');
    const app = document.getElementById('app');
    if (app && this.appLive) app.setAttribute('aria-live', this.appLive);
  }

  // ---- the conversation

  // Shows the server's conversation: new messages appended (a different or shorter one redrawn), the host told of a
  // newly picked next session, and the current question's controls.
  update(conversation, { announce = true } = {}) {
    const previous = this.conversation;
    const same = previous && previous.id === conversation.id && conversation.messages.length >= this.rendered;
    if (!same) {
      this.list.replaceChildren();
      this.rendered = 0;
    }
    const added = conversation.messages.slice(this.rendered);
    added.forEach((message, offset) => this.list.append(this.messageItem(message, this.rendered + offset)));
    this.rendered = conversation.messages.length;
    this.conversation = conversation;
    if (announce) {
      const spoken = added.filter((message) => message.author === 'trainer').map((message) => message.text);
      if (spoken.length) this.announcer.textContent = spoken.join(' ');
    }
    if (same && !previous.scheduledFor && conversation.scheduledFor) {
      this.context.bridge.postFlat('trainer_schedule_next_workout', { scheduledFor: conversation.scheduledFor });
    }
    if (previous && previous.currentField !== conversation.currentField) this.selected = new Set();
    this.drawComposer();
    if (added.length) this.list.lastElementChild.scrollIntoView({ block: 'nearest' });
  }

  messageItem(message, index) {
    const trainer = message.author === 'trainer';
    return h('li', { class: `message ${trainer ? 'trainer' : 'person'}`, id: `message-${index}`, dataset: { field: message.field } },
      h('span', { class: 'visually-hidden' }, trainer ? t('trainer.saysTrainer') : t('trainer.saysYou')),
      h('span', { class: 'text' }, message.text));
  }

  // The last trainer message, when it asks the current question.
  question() {
    const c = this.conversation;
    if (!c || c.status !== 'active' || !c.currentField) return null;
    for (let index = c.messages.length - 1; index >= 0; index -= 1) {
      const message = c.messages[index];
      if (message.author === 'trainer' && message.field === c.currentField) return { message, index };
    }
    return null;
  }

  drawComposer(error = null) {
    const c = this.conversation;
    const composer = this.composer;
    if (this.player) return;
    // What is being asked, for the host page's tests and styles: the question's field, and whether an answer is on
    // its way.
    composer.dataset.field = c.status === 'active' ? c.currentField || '' : 'finished';
    composer.setAttribute('aria-busy', this.sending ? 'true' : 'false');
    if (c.status !== 'active') {
      composer.replaceChildren(h('div', { class: 'actions' },
        h('button', { id: 'new-session', onClick: () => this.restart() }, t('trainer.another')),
        h('button', { id: 'done', class: 'primary', onClick: () => this.context.bridge.post('exit_kinestex', {}) }, t('trainer.done'))));
      return;
    }
    const asked = this.question();
    if (!asked) {
      composer.replaceChildren(h('p', { class: 'status' }, t('trainer.waiting')));
      return;
    }
    const { message, index } = asked;
    const questionId = `message-${index}`;
    const parts = [];
    if (c.step === 'workout' && c.workout && message.field === 'workoutResult') parts.push(this.workoutCard(c.workout));
    if (message.quickReplies.length) {
      const group = h('div', {
        class: 'quick-replies', role: 'group', id: 'quick-replies', 'aria-labelledby': questionId,
      }, message.quickReplies.map((reply) => {
        if (!message.allowsMultiple) {
          return h('button', {
            class: 'quick', dataset: { id: reply.id }, disabled: this.sending,
            onClick: () => this.send({ field: message.field, choices: [reply.id] }),
          }, reply.label);
        }
        const pressed = this.selected.has(reply.id);
        return h('button', {
          class: `quick${pressed ? ' selected' : ''}`, dataset: { id: reply.id }, 'aria-pressed': pressed ? 'true' : 'false',
          disabled: this.sending, onClick: () => this.toggle(reply.id),
        }, reply.label);
      }));
      parts.push(group);
      if (message.allowsMultiple) {
        parts.push(h('div', { class: 'actions' },
          h('button', {
            id: 'send-choices', class: 'primary', disabled: this.sending || this.selected.size === 0,
            onClick: () => this.send({ field: message.field, choices: message.quickReplies.map((r) => r.id).filter((id) => this.selected.has(id)) }),
          }, this.selected.size ? t('trainer.sendCount', { count: this.selected.size }) : t('trainer.send'))));
      }
    }
    parts.push(this.typedAnswer(message, questionId, error));
    composer.replaceChildren(...parts);
  }

  toggle(id) {
    if (id === 'none') {
      this.selected = this.selected.has('none') ? new Set() : new Set(['none']);
    } else {
      this.selected.delete('none');
      if (this.selected.has(id)) this.selected.delete(id);
      else this.selected.add(id);
    }
    this.drawComposer();
    const again = this.composer.querySelector(`.quick[data-id="${CSS.escape(id)}"]`);
    if (again) again.focus();
  }

  // The typed answer: free text read by the server against the question (numbers with units, dates and times,
  // labels); for a date and time also a picker.
  typedAnswer(message, questionId, error) {
    const errorId = 'answer-error';
    const hint = message.expects === 'number_with_unit'
      ? (PLACEHOLDERS.includes(message.unit) ? t(`trainer.example.${message.unit}`) : '')
      : message.expects === 'date_time' ? t('trainer.example.dateTime') : t('trainer.example.text');
    const numeric = message.unit === 'years' || message.unit === 'minutes';
    const input = h('input', {
      id: 'answer', type: 'text', autocomplete: 'off', maxlength: 500, placeholder: hint,
      inputmode: numeric ? 'numeric' : 'text',
      'aria-describedby': error ? errorId : null, 'aria-invalid': error ? 'true' : null, disabled: this.sending,
    });
    const picker = message.expects === 'date_time'
      ? h('input', { id: 'answer-datetime', type: 'datetime-local', disabled: this.sending, 'aria-label': t('trainer.pick') })
      : null;
    const submit = (event) => {
      event.preventDefault();
      const text = input.value.trim() || (picker && picker.value) || '';
      if (!text) {
        this.drawComposer(message.expects === 'date_time' ? t('trainer.emptyTime') : t('trainer.emptyText'));
        this.composer.querySelector('#answer').focus();
        return;
      }
      this.send({ field: message.field, text }, text);
    };
    const label = message.expects === 'number_with_unit' && message.unit ? t('trainer.answerUnit', { unit: message.unit }) : t('trainer.answer');
    return h('form', { class: 'typed', onSubmit: submit, 'aria-labelledby': questionId },
      h('label', { for: 'answer' }, label),
      h('div', { class: 'row' }, input, picker,
        h('button', { id: 'send', type: 'submit', class: 'primary', disabled: this.sending }, t('trainer.send'))),
      h('p', { id: errorId, class: 'answer-error', role: 'alert' }, error || ''));
  }

  // Sends an answer. The same answer sent again after a failure keeps its client id, so the server applies it once.
  async send(reply, typed = null) {
    if (this.sending || !this.conversation) return;
    const key = JSON.stringify([this.conversation.id, reply]);
    if (!this.pending || this.pending.key !== key) this.pending = { key, clientId: clientId() };
    const body = { clientId: this.pending.clientId, ...reply };
    this.sending = true;
    this.drawComposer();
    const path = `/v1/trainer/conversations/${encodeURIComponent(this.conversation.id)}/replies`;
    let failure = null;
    for (let attempt = 1; attempt <= RETRIES; attempt += 1) {
      try {
        const conversation = await this.api.post(path, body);
        this.pending = null;
        this.sending = false;
        this.update(conversation);
        this.focusComposer();
        return;
      } catch (error) {
        failure = error;
        if (!(error.status === 0 || error.status >= 500) || attempt === RETRIES) break;
        await sleep(500 * attempt);
      }
    }
    this.sending = false;
    const problem = failure.problem || {};
    if (failure.status === 409) {
      // Another tab answered, or the conversation ended: show where it is now.
      this.pending = null;
      await this.reload();
      return;
    }
    if (failure.status === 422) {
      this.pending = null;
      const issue = Array.isArray(problem.errors) && problem.errors[0];
      this.drawComposer((issue && issue.detail) || failure.message);
      const input = this.composer.querySelector('#answer');
      if (input) {
        if (typed) input.value = typed;
        input.focus();
      }
      return;
    }
    this.context.report('api', t('error.prefixed', { field: 'trainer', message: failure.message }));
    this.drawComposer(t('trainer.retry', { message: failure.message }));
    const input = this.composer.querySelector('#answer');
    if (input && typed) input.value = typed;
  }

  async reload() {
    try {
      this.update(await this.api.get(`/v1/trainer/conversations/${encodeURIComponent(this.conversation.id)}`));
    } catch (error) {
      this.context.report('api', t('error.prefixed', { field: 'trainer', message: error.message }));
    }
  }

  async restart() {
    try {
      this.update(await this.api.post('/v1/trainer/conversations', preFill(this.context.params)));
      this.focusComposer();
    } catch (error) {
      this.context.report('api', t('error.prefixed', { field: 'trainer', message: error.message }));
    }
  }

  focusComposer() {
    const target = this.composer.querySelector('#start-workout, .quick, #answer, #done');
    if (target) target.focus({ preventScroll: false });
  }

  // ---- today's workout

  workoutCard(workout) {
    const playable = typeof workout.workoutId === 'string' && workout.workoutId;
    return h('section', { class: 'workout-card', id: 'trainer-workout', 'aria-labelledby': 'trainer-workout-title' },
      h('h2', { id: 'trainer-workout-title' }, t('trainer.today', { minutes: formatMinutes(Math.round(workout.estimatedSeconds / 60)) })),
      h('ol', { class: 'items' }, workout.items.map((item) =>
        h('li', { dataset: { exerciseId: item.exerciseId } },
          h('span', { class: 'name' }, item.name), h('span', { class: 'dose' }, dose(item))))),
      h('div', { class: 'actions' },
        h('button', {
          id: 'start-workout', class: 'primary', disabled: !playable || this.sending,
          onClick: () => this.play(workout.workoutId),
        }, t('player.startWorkout')),
        playable ? null : h('p', { class: 'meta' }, t('trainer.notPlayable'))));
  }

  // Plays the workout inline. Leaving early tells the host (`workout_exit_request`) and comes back to the chat;
  // finishing saves the run (the player does) and answers the workout question.
  async play(workoutId) {
    if (this.player) return;
    this.composer.hidden = true;
    this.stage.hidden = false;
    const player = new WorkoutPlayer(this.context, workoutId, {
      root: this.stage,
      onExit: () => this.back(player, () =>
        this.context.bridge.post('workout_exit_request', { workoutId: player.workout ? player.workout.id : workoutId })),
      onFinish: () => this.back(player, () => this.send({ field: 'workoutResult', choices: ['finished'] })),
    });
    this.player = player;
    await player.open();
    if (this.player === player && player.workout) {
      const heading = this.stage.querySelector('h1');
      if (heading) {
        heading.setAttribute('tabindex', '-1');
        heading.focus();
      }
      player.start();
    }
  }

  back(player, then) {
    if (this.player !== player) return;
    this.player = null;
    this.stage.replaceChildren();
    this.stage.hidden = true;
    this.composer.hidden = false;
    this.drawComposer();
    then();
    this.focusComposer();
  }
}
