// The workout player (/embed/workout/{id}): summary, countdown, sets with a live rep counter and form cues, rests,
// pause and exit; the run is started, paused, resumed, quit and saved through the API, and every step is reported
// to the host (docs/embed-protocol.md). The trainer chat plays its workout with the same player inside the chat
// (`root`, `onExit`, `onFinish`): it draws into `root` instead of the page and hands leaving and finishing back.
import { cueCaption } from './captions.js';
import { completionSummary, notSavedView, pageCountedResults } from './completion.js';
import { h, show as showPage, formatSeconds, sleep, speak } from './dom.js';
import { LiveSession, cheerCue, mistakeList } from './live.js';
import { stageEvent } from './overlay.js';
import { resultsView, share } from './results.js';
import { t } from './i18n.js';
import { showPictures, summaryView, themeLine } from './workout-summary.js';

const COUNTDOWN_SECONDS = 3;

export class WorkoutPlayer {
  constructor(context, workoutId, { root = null, onExit = null, onFinish = null } = {}) {
    this.context = context;
    this.workoutId = workoutId;
    this.root = root;
    this.onExit = onExit;
    this.onFinish = onFinish;
    this.workout = null;
    this.paused = false;
    this.exited = false;
    this.phase = null; // { end(reason) } of what is on screen now
    this.live = null;
    this.results = [];
    this.cleanReps = 0;
    this.trackedReps = 0;
    this.activeMilliseconds = 0;
  }

  show(...children) {
    if (!this.root) return showPage(...children);
    this.root.replaceChildren(...children.flat());
    return this.root;
  }

  get api() {
    return this.context.api;
  }

  get bridge() {
    return this.context.bridge;
  }

  async open() {
    try {
      this.workout = await this.api.get(`/v1/workouts/${encodeURIComponent(this.workoutId)}`);
    } catch (error) {
      this.context.fail(error.status === 404 ? 'not_found' : 'api', t('error.prefixed', { field: 'workout', message: error.message }));
      return;
    }
    const workout = this.workout;
    this.bridge.post('workout_opened', { id: workout.id, title: workout.name });
    this.summary = summaryView(workout, { onStart: () => this.start(), onExit: () => this.exit('summary') });
    this.show(this.summary);
    showPictures(this.summary, workout.items, this.api);
  }

  async start() {
    const workout = this.workout;
    // The host may name one of the person's themes for this run (`?theme=<id>`); without it the run takes the
    // workout's own theme, if any (docs/themes.md).
    const themeId = this.context.params && this.context.params.get('theme');
    let run = null;
    try {
      run = await this.api.post(
        `/v1/workouts/${encodeURIComponent(workout.id)}/start`, themeId ? { theme: themeId } : undefined);
    } catch (error) {
      // This workout's own run may already be going (a reload): carry on with it; anything else is an error.
      const active = workout.activeRun;
      if (!(error.status === 409 && active && active.workoutId === workout.id)) {
        this.context.fail(error.status === 409 ? 'conflict' : 'api', error.message);
        return;
      }
      if (active.status === 'paused') await this.api.post(`/v1/workouts/${encodeURIComponent(workout.id)}/resume`);
    }
    this.bridge.post('workout_started', { id: workout.id, title: workout.name });
    this.announceTheme((run && run.theme) || (workout.activeRun && workout.activeRun.theme) || null);
    this.startedAt = performance.now();
    for (const [index, item] of workout.items.entries()) {
      if (this.exited) return;
      await this.playItem(item, index);
    }
    if (!this.exited) await this.finish();
  }

  // ---- one exercise

  async playItem(item, index) {
    const result = {
      exercise: item.name,
      exerciseId: item.exerciseId,
      poseExercise: item.poseExercise ?? null,
      repeats: 0,
      targetRepeats: item.reps ? item.reps * item.sets : null,
      sets: 0,
      timeSpent: 0,
      mistakes: {},
      counted: false,
    };
    this.item = item;
    this.itemIndex = index;
    this.result = result;
    this.finishedItem = false;
    const began = performance.now();
    await this.countdown(item);
    if (this.exited) return;

    const source = item.reps && item.poseExercise ? await this.context.poseSource() : null;
    if (source && !source.ended) {
      try {
        this.live = new LiveSession({
          token: this.api.token,
          onEvent: (event) => this.liveEvent(event),
          onClose: (close) => this.liveClosed(close),
        });
        await this.live.open();
        result.counted = true;
      } catch (error) {
        this.live = null;
        this.context.report('live', t('player.liveFailed', { message: error.message }));
      }
    }

    for (let set = 1; set <= item.sets && !this.finishedItem && !this.exited; set += 1) {
      this.set = set;
      this.setReps = 0;
      await this.work(item, set, result.counted ? source : null);
      result.sets = set;
      if (this.finishedItem || this.exited || set === item.sets) break;
      await this.rest(item, set);
    }
    if (this.live) {
      const live = this.live;
      this.live = null;
      await live.end();
      live.close();
    }
    if (source) source.stop();
    result.timeSpent = Math.round((performance.now() - began) / 1000);
    if (this.exited) return;
    this.results.push(result);
    this.bridge.post('exercise_completed', {
      exercise: result.exercise,
      exerciseId: result.exerciseId,
      poseExercise: result.poseExercise,
      repeats: result.repeats,
      targetRepeats: result.targetRepeats,
      sets: result.sets,
      timeSpent: result.timeSpent,
      mistakes: mistakeList(result.mistakes),
    });
  }

  // The run's theme (an artist, genre or song): shown while the person trains, and told to the host once, so it
  // can play the music (`theme_selected`).
  announceTheme(theme) {
    this.theme = theme;
    if (theme) this.bridge.post('theme_selected', { id: theme.id, name: theme.name, theme: theme.theme });
  }

  async countdown(item) {
    for (let left = COUNTDOWN_SECONDS; left > 0 && !this.exited; left -= 1) {
      this.render({ title: item.name, big: String(left), caption: t('player.getReady'), buttons: ['exit'] });
      await this.wait(1000);
    }
  }

  // A set: counted live until the target, timed, or ticked off by hand; "Finish exercise" ends the exercise.
  work(item, set, source) {
    return new Promise((resolve) => {
      const ended = (reason) => {
        if (this.phase !== phase) return;
        this.phase = null;
        if (source) source.stop();
        if (this.live) this.live.pause();
        resolve(reason);
      };
      const phase = { end: ended, kind: 'work' };
      this.phase = phase;
      if (source) {
        this.live.startSet({
          exercise: item.poseExercise,
          exerciseId: item.exerciseId,
          workoutId: this.workout.id,
          aspectRatio: source.aspectRatio,
          source: source.kind,
        });
        const stage = this.context.stage();
        stage.begin(source);
        source.onFrame = (t, landmarks) => {
          if (this.live && !this.paused) this.live.sendFrame(t, landmarks);
          stage.frame(landmarks);
        };
        // A recording that runs out finishes the exercise it was playing.
        source.onEnd = () => {
          this.finishedItem = true;
          setTimeout(() => ended('recording-ended'), 300);
        };
        this.renderWork();
        source.start();
      } else if (item.holdSeconds) {
        this.renderWork(item.holdSeconds);
        this.timer(item.holdSeconds, (left) => this.renderWork(left)).then(() => ended('time'));
      } else {
        this.renderWork();
      }
    });
  }

  async rest(item, set) {
    if (!item.restSeconds) return;
    const phase = { kind: 'rest' };
    const finished = new Promise((resolve) => {
      phase.end = (reason) => {
        if (this.phase !== phase) return;
        this.phase = null;
        resolve(reason);
      };
    });
    this.phase = phase;
    const draw = (left) => this.render({
      title: t('player.rest'),
      big: formatSeconds(left),
      caption: t('player.nextSet', { name: item.name, set: set + 1, sets: item.sets }),
      buttons: ['skip-rest', 'pause', 'exit'],
    });
    draw(item.restSeconds);
    this.timer(item.restSeconds, draw, phase).then(() => phase.end && phase.end('time'));
    await finished;
  }

  // Counts down `seconds` of unpaused time, redrawing each second; stops early when the phase changes.
  async timer(seconds, draw, phase = this.phase) {
    let left = seconds;
    let shown = Math.ceil(left);
    while (left > 0 && this.phase === phase && !this.exited) {
      const before = performance.now();
      await sleep(100);
      if (!this.paused) left -= (performance.now() - before) / 1000;
      if (Math.ceil(left) !== shown && this.phase === phase) {
        shown = Math.ceil(left);
        draw(Math.max(0, left));
      }
    }
  }

  async wait(milliseconds) {
    let left = milliseconds;
    while (left > 0 && !this.exited) {
      const before = performance.now();
      await sleep(Math.min(100, left));
      if (!this.paused) left -= performance.now() - before;
    }
  }

  // ---- live events

  liveEvent(event) {
    if (event.type === 'cheer') {
      // A follower's cheer is the cue; shown at once during a set, else when the next one starts.
      this.cue = cheerCue(event);
      if (this.phase && this.phase.kind === 'work') this.renderWork();
      return;
    }
    const item = this.item;
    if (!item || !this.phase || this.phase.kind !== 'work') return;
    const result = this.result;
    switch (event.type) {
      case 'rep': {
        result.repeats += 1;
        this.setReps += 1;
        this.trackedReps += 1;
        if (!event.mistakes || event.mistakes.length === 0) this.cleanReps += 1;
        this.bridge.post('successful_repeat', {
          exercise: item.name,
          poseExercise: item.poseExercise,
          repeats: result.repeats,
          set: this.set,
          quality: event.quality,
          mistakes: event.mistakes || [],
        });
        this.renderWork();
        if (this.setReps >= item.reps) this.phase.end('target');
        break;
      }
      case 'mistake':
      case 'partial': {
        const entry = result.mistakes[event.code] || { message: event.message, count: 0 };
        entry.count += 1;
        result.mistakes[event.code] = entry;
        this.cue = event.message;
        speak(event.message);
        this.bridge.post('mistake', {
          exercise: item.name,
          code: event.code,
          message: event.message,
          partial: event.type === 'partial',
        });
        this.renderWork();
        break;
      }
      // The stage says what to do (its guidance is a live region of its own).
      case 'left_frame':
        this.bridge.post('left_camera_frame', { exercise: item.name });
        break;
      case 'returned_frame':
        this.bridge.post('returned_camera_frame', { exercise: item.name });
        break;
      default:
        break;
    }
    stageEvent(this.context.stage(), event, this.setReps);
  }

  liveClosed(close) {
    if (close.code === 1000 || this.exited) return;
    this.context.report('live', `live: ${close.reason || t('live.closed', { code: String(close.code) })}`);
    if (this.result) this.result.counted = false;
    this.live = null;
    // The set goes on, ticked off by hand.
    if (this.phase && this.phase.kind === 'work') this.renderWork();
  }

  // ---- controls

  async togglePause() {
    const id = encodeURIComponent(this.workout.id);
    this.paused = !this.paused;
    const source = this.result && this.result.counted ? this.context.currentSource : null;
    if (this.paused) {
      if (source) source.stop();
      if (this.live) this.live.pause();
      this.api.post(`/v1/workouts/${id}/pause`).catch((error) => this.context.report('api', error.message));
    } else {
      this.api.post(`/v1/workouts/${id}/resume`).catch((error) => this.context.report('api', error.message));
      if (this.live && this.phase && this.phase.kind === 'work') this.live.resume();
      if (source && this.phase && this.phase.kind === 'work') source.start();
    }
    if (this.phase && this.phase.kind === 'work') this.renderWork();
  }

  finishExercise() {
    this.finishedItem = true;
    if (this.phase) this.phase.end('finished');
  }

  setDone() {
    if (!this.phase || this.phase.kind !== 'work') return;
    if (this.item.reps) this.result.repeats += this.item.reps;
    this.phase.end('done');
  }

  async exit(where) {
    if (this.exited) return;
    this.exited = true;
    if (this.phase) this.phase.end('exit');
    if (this.live) this.live.close();
    if (this.context.currentSource) this.context.currentSource.stop();
    if (where !== 'summary' && where !== 'finished') {
      try {
        await this.api.post(`/v1/workouts/${encodeURIComponent(this.workout.id)}/quit`);
      } catch (error) {
        // Already ended: nothing to quit.
      }
    }
    this.context.releaseCamera();
    if (this.onExit) return this.onExit(where);
    this.bridge.post('exit_kinestex', { workoutId: this.workout ? this.workout.id : this.workoutId });
    this.show(h('section', { class: 'done' }, h('p', { class: 'status' }, t('player.left'))));
  }

  // ---- end of the workout

  async finish() {
    const workout = this.workout;
    // Live-counted exercises are filled in by the server from the sets it analysed; the others are sent here.
    const results = pageCountedResults(this.results);
    let run = null;
    try {
      run = await this.api.post(`/v1/workouts/${encodeURIComponent(workout.id)}/save`, { results });
    } catch (error) {
      this.context.report('api', t('error.prefixed', { field: 'save', message: error.message }));
    }
    this.context.releaseCamera();
    if (run && run.planUnlocked) {
      const unlock = run.planUnlocked;
      this.bridge.post('plan_unlocked', {
        planId: unlock.planId,
        title: unlock.title,
        image: unlock.image ?? null,
        date: unlock.date,
        level: unlock.level,
        levelTitle: unlock.levelTitle,
      });
    }
    const totalSeconds = Math.round((performance.now() - this.startedAt) / 1000);
    const summary = completionSummary(workout, run, this.results,
      { trackedReps: this.trackedReps, cleanReps: this.cleanReps, totalSeconds });
    this.bridge.post('workout_completed', summary);
    if (this.onFinish) {
      this.exited = true;
      return this.onFinish(summary);
    }
    if (!run) {
      this.show(notSavedView(summary, () => this.exit('finished')));
      const heading = document.getElementById('results-title');
      if (heading) heading.focus();
      return;
    }
    const { view, heading } = resultsView(workout, run, {
      onShare: (status) => share(summary.shareText, status),
      onClose: () => this.exit('finished'),
    });
    this.show(view);
    heading.focus();
  }

  // ---- drawing

  renderWork(secondsLeft) {
    const item = this.item;
    if (!item) return;
    const counted = this.result.counted && this.live;
    let big;
    let caption;
    if (item.holdSeconds && !counted) {
      if (secondsLeft !== undefined) this.secondsLeft = secondsLeft;
      big = formatSeconds(this.secondsLeft ?? item.holdSeconds);
      caption = t('player.setHold', { set: this.set, sets: item.sets, seconds: item.holdSeconds });
    } else if (counted) {
      big = `${this.setReps} / ${item.reps}`;
      caption = t('player.set', { set: this.set, sets: item.sets });
    } else {
      big = t('player.reps', { count: item.reps });
      caption = t('player.setTap', { set: this.set, sets: item.sets });
    }
    const buttons = ['pause', 'finish', 'exit'];
    if (!counted && !item.holdSeconds) buttons.unshift('set-done');
    this.render({ title: item.name, big, caption, cue: this.cue, buttons, counter: counted });
  }

  render({ title, big, caption, cue, buttons, counter }) {
    const all = {
      'set-done': h('button', { id: 'set-done', class: 'primary', onClick: () => this.setDone() }, t('player.setDone')),
      'skip-rest': h('button', { id: 'skip-rest', class: 'primary', onClick: () => this.phase && this.phase.end('skipped') }, t('player.skipRest')),
      pause: h('button', { id: 'pause', onClick: () => this.togglePause() }, this.paused ? t('player.resume') : t('player.pause')),
      finish: h('button', { id: 'finish-exercise', onClick: () => this.finishExercise() }, t('player.finishExercise')),
      exit: h('button', { id: 'exit', class: 'quiet', onClick: () => this.exit('player') }, t('player.exit')),
    };
    this.show(
      h('section', { class: 'player', dataset: { phase: this.phase ? this.phase.kind : 'countdown' } },
        h('p', { class: 'progress' }, t('player.exerciseOf', { number: this.itemIndex + 1, count: this.workout.items.length })),
        this.theme ? themeLine(this.theme) : null,
        h('h1', {}, title),
        h('p', { class: 'big', id: counter ? 'rep-count' : 'display' }, big),
        h('p', { class: 'caption' }, caption),
        cueCaption(cue || ''),
        this.paused ? h('p', { class: 'paused' }, t('player.paused')) : null,
        h('div', { class: 'actions' }, buttons.map((name) => all[name]))),
      this.context.stage().shown(Boolean(counter && this.phase && this.phase.kind === 'work')));
  }
}

