// The fitness test (/embed/fitness-test, docs/fitness-tests.md "The page", seed 004): the person picks a category,
// how many exercises and which of their tracked ones; then, per exercise, Begin records the phone's motion
// (`devicemotion`, after the permission prompt iOS requires) for 30 seconds of samples — Skip sends what is recorded
// so far — and the server counts the repetitions; the result is shown beside the previous one with a Track / Untrack
// button, and the completed test with the level and whether it went up (`fitness_test_completed` to the host).
import { h, show, formatSeconds } from './dom.js';
import { t, formatNumber } from './i18n.js';
import { MotionRecorder, TEST_SECONDS } from './motion-recorder.js';

export const CATEGORIES = ['strength', 'cardio', 'stretching', 'plyometrics', 'powerlifting', 'olympic weightlifting',
  'strongman'];
const NO_MOTION_MILLISECONDS = 4000; // after Begin with no sample yet, the page says that no motion arrives

// "10 repetitions, 30.0 a minute" for a stored result.
export function resultLine(result) {
  if (!result) return t('fitness.noResult');
  const reps = t('fitness.repetitions', { count: result.reps });
  return result.ratePerMinute === undefined || result.ratePerMinute === null
    ? reps : t('fitness.withRate', {
      reps, rate: formatNumber(result.ratePerMinute, { maximumFractionDigits: 1, minimumFractionDigits: 1 }),
    });
}

export function changeLine(change) {
  if (change === undefined || change === null) return '—';
  const percent = Math.round(Math.abs(change) * 100);
  if (percent === 0) return t('fitness.samePace');
  return t(change > 0 ? 'fitness.faster' : 'fitness.slower', { percent });
}

export class FitnessTestView {
  constructor(context) {
    this.context = context;
    this.test = null;
    this.recorder = null;
    this.noMotion = null;
    this.tracked = new Map(); // exercise id → tracked, as the server last answered
  }

  get api() {
    return this.context.api;
  }

  leave() {
    if (this.recorder) this.recorder.stop();
    clearTimeout(this.noMotion);
  }

  // ---- choosing the test

  async open() {
    show(h('p', { class: 'status' }, t('common.loading')));
    let level;
    let latest;
    try {
      [level, latest] = await Promise.all([this.api.get('/v1/me/fitness-level'), this.api.get('/v1/fitness-tests?limit=1')]);
    } catch (error) {
      this.context.fail('api', t('error.prefixed', { field: 'fitness-tests', message: error.message }));
      return;
    }
    this.status = h('p', { class: 'status', id: 'fitness-status', role: 'status' });
    this.errors = {};
    const error = (name) => (this.errors[name] = h('p', { class: 'field-error', id: `${name}-error` }));
    this.category = h('select', { id: 'fitness-category', 'aria-describedby': 'category-error',
      onChange: () => {
        this.found.replaceChildren();
        this.refreshTracked();
      } }, CATEGORIES.map((name) => h('option', { value: name }, name)));
    this.count = h('select', { id: 'fitness-count', 'aria-describedby': 'count-hint count-error' },
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((value) => h('option', { value }, String(value))));
    this.choices = h('div', { class: 'choices-list', id: 'fitness-choices' });
    const form = h('form', { id: 'fitness-setup', 'aria-labelledby': 'setup-heading', novalidate: true },
      h('h2', { id: 'setup-heading' }, t('fitness.startHeading')),
      h('div', { class: 'field' }, h('label', { for: 'fitness-category' }, t('fitness.category')), this.category, error('category')),
      h('div', { class: 'field' }, h('label', { for: 'fitness-count' }, t('fitness.howMany')), this.count,
        h('p', { class: 'meta', id: 'count-hint' }, t('fitness.countHint')),
        error('count')),
      h('fieldset', { class: 'choices', id: 'fitness-exercises' },
        h('legend', {}, t('fitness.tracked')), this.choices, error('exerciseIds')),
      h('div', { class: 'actions' }, h('button', { id: 'start-test', class: 'primary', type: 'submit' }, t('fitness.start'))));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.start();
    });
    this.search = h('input', { id: 'track-search', type: 'search', maxlength: 100, 'aria-describedby': 'track-hint' });
    this.found = h('ul', { class: 'track-results', id: 'track-results', 'aria-label': t('fitness.found') });
    const searchForm = h('form', { id: 'track-form', role: 'search', 'aria-labelledby': 'track-heading', novalidate: true },
      h('h2', { id: 'track-heading' }, t('fitness.trackHeading')),
      h('div', { class: 'field' }, h('label', { for: 'track-search' }, t('fitness.exerciseName')), this.search,
        h('p', { class: 'meta', id: 'track-hint' }, t('fitness.trackHint'))),
      h('div', { class: 'actions' }, h('button', { id: 'track-find', type: 'submit' }, t('fitness.find'))));
    searchForm.addEventListener('submit', (event) => {
      event.preventDefault();
      this.find();
    });
    const unfinished = latest.items[0] && latest.items[0].status === 'in_progress' ? latest.items[0] : null;
    show(h('section', { class: 'fitness-test' },
      h('h1', { id: 'fitness-heading', tabindex: '-1' }, t('fitness.heading')),
      h('p', { id: 'fitness-level' }, levelLine(level)),
      h('p', { class: 'meta' }, t('fitness.intro', { seconds: TEST_SECONDS })),
      unfinished ? h('div', { class: 'actions' }, h('button', { id: 'carry-on', onClick: () => this.run(unfinished) },
        t('fitness.carryOn', { category: unfinished.category, done: unfinished.exercises.length - unfinished.remaining.length, count: unfinished.exercises.length }))) : null,
      this.status, form, searchForm, this.found,
      h('div', { class: 'actions' },
        h('button', { id: 'exit', class: 'quiet', onClick: () => this.context.bridge.post('exit_kinestex', {}) }, t('common.close')))));
    await this.refreshTracked();
  }

  async refreshTracked() {
    let list;
    try {
      list = await this.api.get(`/v1/me/tracked-exercises?category=${encodeURIComponent(this.category.value)}`);
    } catch (error) {
      this.status.textContent = t('fitness.trackedFailed', { message: error.message });
      return;
    }
    for (const item of list.items) this.tracked.set(item.exerciseId, true);
    const ticked = new Set([...this.choices.querySelectorAll('input:checked')].map((box) => box.value));
    this.choices.replaceChildren(...(list.items.length === 0
      ? [h('p', { class: 'meta empty' }, t('fitness.noneTracked', { category: this.category.value }))]
      : list.items.map((item) => {
        const id = `fitness-exercise-${item.exerciseId.replace(/[^a-z0-9]+/gi, '-')}`;
        return h('label', { class: 'choice', for: id },
          h('input', { type: 'checkbox', id, value: item.exerciseId, checked: ticked.has(item.exerciseId),
            'aria-describedby': 'exerciseIds-error' }), ` ${item.name}`);
      })));
  }

  async find() {
    const query = this.search.value.trim();
    const path = `/v1/exercises?category=${encodeURIComponent(this.category.value)}&perPage=10`
      + (query ? `&q=${encodeURIComponent(query)}` : '');
    let page;
    try {
      page = await this.api.get(path);
    } catch (error) {
      this.status.textContent = t('fitness.searchFailed', { message: error.message });
      return;
    }
    this.found.replaceChildren(...(page.items.length === 0
      ? [h('li', { class: 'empty' }, t('fitness.noneFound'))]
      : page.items.map((exercise) => h('li', {}, h('span', {}, exercise.name),
        this.trackButton({ exerciseId: exercise.id, name: exercise.name }, () => this.refreshTracked())))));
    this.status.textContent = page.total > page.items.length
      ? t('fitness.foundFirst', { count: page.total, shown: page.items.length })
      : t('fitness.foundCount', { count: page.total });
  }

  clearErrors() {
    for (const error of Object.values(this.errors)) error.textContent = '';
    for (const control of [this.category, this.count, ...this.choices.querySelectorAll('input')]) {
      control.removeAttribute('aria-invalid');
    }
  }

  async start() {
    this.clearErrors();
    const ids = [...this.choices.querySelectorAll('input:checked')].map((box) => box.value);
    const body = { category: this.category.value };
    if (ids.length > 0) body.exerciseIds = ids;
    else body.count = Number(this.count.value);
    let test;
    try {
      test = await this.api.post('/v1/fitness-tests', body);
    } catch (error) {
      const fields = (error.problem && error.problem.errors) || [];
      if (fields.length === 0) this.status.textContent = t('fitness.notStarted', { message: error.message });
      for (const field of fields.slice().reverse()) this.fieldError(field.field, field.detail);
      return;
    }
    this.run(test);
  }

  // `exerciseIds[1]` is shown under the exercises, its box marked; `count` and `category` under their selects.
  fieldError(field, message) {
    const name = String(field).replace(/\[(\d+)\]$/, '');
    const index = /\[(\d+)\]$/.exec(String(field));
    const error = this.errors[name];
    if (!error) {
      this.status.textContent = t('fitness.notStarted', { message: `${field}: ${message}` });
      return;
    }
    error.textContent = error.textContent ? `${error.textContent} ${message}` : message;
    let control = name === 'category' ? this.category : name === 'count' ? this.count : null;
    if (name === 'exerciseIds') {
      const boxes = [...this.choices.querySelectorAll('input:checked')];
      control = (index && boxes[Number(index[1])]) || boxes[0] || this.choices.querySelector('input');
    }
    if (control) {
      control.setAttribute('aria-invalid', 'true');
      control.focus();
    }
  }

  // ---- recording the exercises

  run(test) {
    this.test = test;
    const next = test.remaining[0];
    if (test.status === 'completed' || next === undefined) {
      this.results();
      return;
    }
    this.exercise(test.exercises.find((item) => item.exerciseId === next));
  }

  exercise(item) {
    const test = this.test;
    const number = test.exercises.indexOf(item) + 1;
    this.timer = h('p', { class: 'big', id: 'fitness-timer', role: 'timer', 'aria-label': t('fitness.timeLeft') }, formatSeconds(TEST_SECONDS));
    this.alert = h('p', { class: 'field-error', id: 'fitness-alert', role: 'alert' });
    this.status = h('p', { class: 'status', id: 'fitness-status', role: 'status' });
    this.beginButton = h('button', { id: 'begin', class: 'primary', onClick: () => this.begin(item) }, t('fitness.begin'));
    this.skipButton = h('button', { id: 'skip', hidden: true, onClick: () => this.finishRecording(item) }, t('fitness.skip'));
    this.resultArea = h('div', { id: 'exercise-result' });
    const heading = h('h2', { id: 'exercise-name', tabindex: '-1' }, item.name);
    show(h('section', { class: 'fitness-test fitness-run', dataset: { state: 'ready', exerciseId: item.exerciseId } },
      h('h1', {}, t('fitness.testOf', { category: test.category })),
      h('p', { class: 'meta', id: 'fitness-progress' }, t('player.exerciseOf', { number, count: test.exercises.length })),
      heading,
      h('p', { id: 'fitness-previous' }, item.previous
        ? t('fitness.lastTime', { result: resultLine(item.previous) }) : t('fitness.baseline')),
      h('p', { class: 'meta' }, t('fitness.howTo')),
      this.timer, this.alert, this.status,
      h('div', { class: 'actions' }, this.beginButton, this.skipButton),
      this.resultArea,
      h('div', { class: 'actions' },
        h('button', { id: 'exit', class: 'quiet', onClick: () => this.context.bridge.post('exit_kinestex', {}) }, t('common.close')))));
    heading.focus();
  }

  setState(state) {
    const section = document.querySelector('.fitness-run');
    if (section) section.dataset.state = state;
  }

  // Must run from the click: iOS asks for motion access only inside a user gesture. Without a prompt to answer the
  // recording starts at once, in the click itself.
  async begin(item) {
    this.alert.textContent = '';
    if (typeof window.DeviceMotionEvent === 'undefined') {
      this.motionProblem(t('fitness.noSensors'));
      return;
    }
    if (typeof window.DeviceMotionEvent.requestPermission === 'function') {
      let answer;
      try {
        answer = await window.DeviceMotionEvent.requestPermission();
      } catch (error) {
        answer = 'denied';
      }
      if (answer !== 'granted') {
        this.motionProblem(t('fitness.refused'));
        return;
      }
    }
    this.record(item);
  }

  motionProblem(message) {
    this.alert.textContent = message;
    this.context.bridge.post('error_occurred', { code: 'motion', message });
  }

  record(item) {
    let shown = TEST_SECONDS;
    this.recorder = new MotionRecorder({
      onSample: (elapsed) => {
        if (this.alert.dataset.noMotion) {
          this.alert.textContent = '';
          delete this.alert.dataset.noMotion;
        }
        const left = Math.max(0, Math.ceil(TEST_SECONDS - elapsed - 1e-9));
        if (left !== shown) {
          shown = left;
          this.timer.textContent = formatSeconds(left);
        }
      },
      onFull: () => this.finishRecording(item),
    });
    this.recorder.start();
    this.setState('recording');
    this.timer.textContent = formatSeconds(TEST_SECONDS);
    this.beginButton.hidden = true;
    this.skipButton.hidden = false;
    this.skipButton.focus();
    this.status.textContent = t('fitness.recording', { name: item.name });
    clearTimeout(this.noMotion);
    this.noMotion = setTimeout(() => {
      if (this.recorder && this.recorder.listening && this.recorder.samples.length === 0) {
        this.alert.dataset.noMotion = 'true';
        this.alert.textContent = t('fitness.noMotion');
      }
    }, NO_MOTION_MILLISECONDS);
  }

  async finishRecording(item) {
    const recorder = this.recorder;
    if (!recorder || this.sending) return;
    recorder.stop();
    clearTimeout(this.noMotion);
    this.recorder = null;
    this.skipButton.hidden = true;
    if (recorder.samples.length === 0) {
      this.setState('ready');
      delete this.alert.dataset.noMotion;
      this.motionProblem(t('fitness.nothingRecorded'));
      this.again();
      return;
    }
    this.setState('sending');
    this.sending = true;
    this.status.textContent = t('fitness.counting');
    let test;
    try {
      test = await this.api.post(
        `/v1/fitness-tests/${encodeURIComponent(this.test.id)}/exercises/${encodeURIComponent(item.exerciseId)}/motion`,
        recorder.recording(item.exerciseId));
    } catch (error) {
      this.sending = false;
      this.setState('ready');
      this.status.textContent = '';
      this.alert.textContent = t('fitness.notRecorded', { message: error.message });
      this.again();
      return;
    } finally {
      this.sending = false;
    }
    this.test = test;
    const done = test.exercises.find((entry) => entry.exerciseId === item.exerciseId);
    this.showResult(done);
  }

  again() {
    this.beginButton.textContent = t('fitness.beginAgain');
    this.beginButton.hidden = false;
    this.beginButton.focus();
    this.timer.textContent = formatSeconds(TEST_SECONDS);
  }

  showResult(item) {
    const completed = this.test.status === 'completed';
    this.setState('recorded');
    this.status.textContent = `${item.name}: ${resultLine(item.result)}.`;
    const next = h('button', { id: 'next', class: 'primary', onClick: () => this.run(this.test) },
      completed ? t('fitness.seeResults') : t('fitness.next'));
    const heading = h('h3', { id: 'result-heading', tabindex: '-1' }, t('fitness.yourResult'));
    this.resultArea.replaceChildren(
      heading,
      h('dl', { class: 'totals', id: 'result' },
        h('dt', {}, t('fitness.thisTime')), h('dd', { id: 'result-this' }, resultLine(item.result)),
        h('dt', {}, t('fitness.lastTimeLabel')), h('dd', { id: 'result-previous' }, item.previous ? resultLine(item.previous) : t('progress.none')),
        h('dt', {}, t('progress.change')), h('dd', { id: 'result-change' }, changeLine(item.change))),
      h('div', { class: 'actions' }, this.trackButton(item), next,
        completed ? null : h('button', { id: 'record-again', onClick: () => this.exercise(item) }, t('fitness.recordAgain'))));
    heading.focus();
    if (completed) this.tellHost();
  }

  // A Track / Untrack button for one exercise: its text says what a press does, the status line what it did.
  trackButton(item, after = () => {}) {
    const button = h('button', { type: 'button', class: 'track', dataset: { exerciseId: item.exerciseId } });
    const set = (tracked) => {
      this.tracked.set(item.exerciseId, tracked);
      button.dataset.tracked = String(tracked);
      button.textContent = t(tracked ? 'fitness.untrack' : 'fitness.track', { name: item.name });
    };
    if (this.tracked.has(item.exerciseId)) {
      set(this.tracked.get(item.exerciseId));
    } else {
      set(false);
      button.disabled = true;
      this.api.get(`/v1/me/tracked-exercises/${encodeURIComponent(item.exerciseId)}`)
        .then((answer) => set(answer.tracked))
        .catch(() => {})
        .finally(() => { button.disabled = false; });
    }
    button.addEventListener('click', async () => {
      const tracked = this.tracked.get(item.exerciseId);
      let answer;
      try {
        answer = await this.api.request(tracked ? 'DELETE' : 'PUT',
          `/v1/me/tracked-exercises/${encodeURIComponent(item.exerciseId)}`);
      } catch (error) {
        this.status.textContent = t('error.prefixed', { field: item.name, message: error.message });
        return;
      }
      set(answer.tracked);
      this.status.textContent = answer.tracked
        ? t('fitness.nowTracked', { name: item.name })
        : t('fitness.nowUntracked', { name: item.name });
      await after();
    });
    return button;
  }

  // ---- the completed test

  tellHost() {
    if (this.told === this.test.id) return;
    this.told = this.test.id;
    const level = this.test.level;
    this.context.bridge.post('fitness_test_completed', {
      id: this.test.id, category: this.test.category, exercises: this.test.exercises.length,
      levelBefore: level.before, level: level.after, levelledUp: level.levelledUp,
    });
  }

  async results() {
    const test = this.test;
    this.tellHost();
    let level = null;
    try {
      level = await this.api.get('/v1/me/fitness-level');
    } catch (error) {
      level = null;
    }
    this.status = h('p', { class: 'status', id: 'fitness-status', role: 'status' });
    const change = test.level;
    const heading = h('h1', { id: 'results-heading', tabindex: '-1' }, t('fitness.yourResults'));
    show(h('section', { class: 'fitness-test fitness-results', dataset: { state: 'completed' } },
      heading,
      h('p', { id: 'fitness-level-result', class: change.levelledUp ? 'level-up' : null },
        change.levelledUp
          ? t(level ? 'fitness.levelUpNamed' : 'fitness.levelUp', { after: change.after, name: level && level.name, before: change.before })
          : t(level ? 'fitness.levelSameNamed' : 'fitness.levelSame', { after: change.after, name: level && level.name })),
      h('p', { class: 'meta', id: 'fitness-reason' }, change.reason),
      h('table', { class: 'results', id: 'fitness-results' },
        h('caption', {}, t('fitness.caption', { category: test.category })),
        h('thead', {}, h('tr', {}, [t('fitness.exercise'), t('progress.thisTest'), t('fitness.previous'), t('progress.change')].map((title) => h('th', { scope: 'col' }, title)))),
        h('tbody', {}, test.exercises.map((item) => h('tr', { dataset: { exerciseId: item.exerciseId } },
          h('th', { scope: 'row' }, item.name),
          h('td', {}, resultLine(item.result)),
          h('td', {}, item.previous ? resultLine(item.previous) : '—'),
          h('td', {}, changeLine(item.change)))))),
      h('h2', {}, t('fitness.keep')),
      h('div', { class: 'actions', id: 'track-buttons' }, test.exercises.map((item) => this.trackButton(item))),
      this.status,
      h('div', { class: 'actions' },
        h('button', { id: 'another', onClick: () => this.open() }, t('fitness.another')),
        h('button', { id: 'exit', class: 'quiet', onClick: () => this.context.bridge.post('exit_kinestex', {}) }, t('common.close')))));
    heading.focus();
  }
}

function levelLine(level) {
  return t('fitness.level', { level: level.level, name: level.name, count: level.testsCompleted });
}
