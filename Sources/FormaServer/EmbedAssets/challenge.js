// The timed challenge (/embed/challenge?exercise=squat&duration=60) and its leaderboard (/embed/leaderboard?…):
// the server counts and times the challenge (docs/live-protocol.md, "Timed challenges") and ranks each person's best
// within the company (GET /v1/challenges/leaderboard).
import { cueCaption } from './captions.js';
import { h, show, formatSeconds, sleep } from './dom.js';
import { LiveSession, reportLiveEvent, mistakeList } from './live.js';
import { stageEvent } from './overlay.js';
import { t } from './i18n.js';

export function challengeParameters(params) {
  const exercise = (params.get('exercise') || '').trim().toLowerCase();
  const seconds = Number(params.get('duration') || '60');
  if (!exercise) return { problem: t('challenge.noExercise') };
  if (!Number.isInteger(seconds) || seconds < 10 || seconds > 600) {
    return { problem: t('challenge.badDuration') };
  }
  return { exercise, seconds };
}

export async function leaderboard(context, exercise, seconds, heading = 'h2') {
  const query = new URLSearchParams({ exercise, seconds: String(seconds), limit: '10' });
  const board = await context.api.get(`/v1/challenges/leaderboard?${query}`);
  const row = (entry) => h('tr', { class: entry.isMe ? 'me' : null },
    h('td', {}, String(entry.rank)), h('td', {}, entry.isMe ? t('board.nameYou', { name: entry.name }) : entry.name),
    h('td', { class: 'reps' }, String(entry.reps)));
  const rows = board.entries.map(row);
  if (board.me && !board.entries.some((entry) => entry.isMe)) rows.push(row(board.me));
  return h('section', { class: 'leaderboard' },
    h(heading, {}, t('challenge.leaderboard', { exercise, time: formatSeconds(seconds) })),
    rows.length === 0
      ? h('p', { class: 'meta', id: 'leaderboard-empty' }, t('challenge.noScores'))
      : h('table', { id: 'leaderboard' },
        h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, t('board.name')), h('th', {}, t('challenge.reps')))),
        h('tbody', {}, rows)));
}

export class LeaderboardView {
  constructor(context) {
    this.context = context;
  }

  async open() {
    const { exercise, seconds, problem } = challengeParameters(this.context.params);
    if (problem) return this.context.fail('configuration', problem);
    try {
      show(await leaderboard(this.context, exercise, seconds, 'h1'),
        h('button', { id: 'exit', class: 'quiet', onClick: () => this.context.bridge.post('exit_kinestex', {}) }, t('common.close')));
    } catch (error) {
      this.context.fail('api', t('error.prefixed', { field: 'leaderboard', message: error.message }));
    }
  }
}

export class ChallengeView {
  constructor(context) {
    this.context = context;
    this.tally = { reps: 0, mistakes: {} };
    this.live = null;
    this.cue = '';
    this.running = false;
  }

  async open() {
    const { exercise, seconds, problem } = challengeParameters(this.context.params);
    if (problem) return this.context.fail('configuration', problem);
    this.exercise = exercise;
    this.seconds = seconds;
    let board;
    try {
      board = await leaderboard(this.context, exercise, seconds);
    } catch (error) {
      return this.context.fail(error.status === 422 ? 'configuration' : 'api', t('error.prefixed', { field: 'challenge', message: error.message }));
    }
    show(
      h('section', { class: 'challenge' },
        h('h1', {}, t('challenge.title', { exercise })),
        h('p', { class: 'meta' }, t('challenge.asMany', { time: formatSeconds(seconds) })),
        h('div', { class: 'actions' },
          h('button', { id: 'start', class: 'primary', onClick: () => this.start() }, t('challenge.start')),
          h('button', { id: 'exit', class: 'quiet', onClick: () => this.exit() }, t('player.exit')))),
      board);
  }

  async start() {
    if (this.running) return;
    this.running = true;
    for (let left = 3; left > 0; left -= 1) {
      this.render(String(left), t('player.getReady'));
      await sleep(1000);
    }
    const source = await this.context.poseSource();
    if (!source) return this.render('—', t('challenge.noCamera'));
    this.live = new LiveSession({
      token: this.context.api.token,
      onEvent: (event) => this.liveEvent(event),
      onClose: (close) => {
        if (close.code !== 1000) this.context.report('live', `live: ${close.reason || t('live.closed', { code: String(close.code) })}`);
      },
    });
    try {
      await this.live.open();
    } catch (error) {
      return this.context.report('live', `live: ${error.message}`);
    }
    this.began = performance.now();
    this.live.startSet({
      exercise: this.exercise, aspectRatio: source.aspectRatio, challengeSeconds: this.seconds, source: source.kind,
    });
    const stage = this.context.stage();
    stage.begin(source);
    source.onFrame = (t, landmarks) => {
      if (this.live) this.live.sendFrame(t, landmarks);
      stage.frame(landmarks);
    };
    // A recording that runs out before the time is up ends the try; it is reported but not ranked.
    source.onEnd = () => setTimeout(() => this.finish(null), 300);
    source.start();
    this.tick();
  }

  async tick() {
    while (this.running) {
      const left = this.seconds - (performance.now() - this.began) / 1000;
      this.render(String(this.tally.reps), t('challenge.left', { time: formatSeconds(Math.max(0, left)) }));
      await sleep(250);
    }
  }

  liveEvent(event) {
    if (event.type === 'challenge') {
      this.finish(event);
      return;
    }
    const cue = reportLiveEvent(this.context.bridge, this.exercise, event, this.tally);
    stageEvent(this.context.stage(), event, this.tally.reps);
    if (cue) this.cue = cue;
  }


  // Ends the try: with the server's verdict when the time ran out, or early (recording ended, Exit).
  async finish(verdict) {
    if (!this.running) return;
    this.running = false;
    const source = this.context.currentSource;
    if (source) source.stop();
    const live = this.live;
    this.live = null;
    let result = verdict;
    if (live) {
      const waitForVerdict = result ? null : new Promise((resolve) => {
        const previous = live.onEvent;
        live.onEvent = (event) => {
          if (event.type === 'challenge') resolve(event);
          previous(event);
        };
      });
      await live.end();
      if (waitForVerdict) result = await Promise.race([waitForVerdict, sleep(2000).then(() => null)]);
      live.close();
    }
    this.context.releaseCamera();
    const completed = Boolean(result && result.completed);
    // A replayed recording's score is kept but never ranked (docs/live-protocol.md, "Sources").
    const ranked = Boolean(result && result.ranked);
    const reps = result ? result.reps : this.tally.reps;
    this.context.bridge.post('exercise_completed', {
      exercise: this.exercise,
      repeats: reps,
      timeSpent: Math.round((performance.now() - this.began) / 1000),
      mistakes: mistakeList(this.tally.mistakes),
      challengeSeconds: this.seconds,
      ranked,
    });
    let board = null;
    try {
      board = await leaderboard(this.context, this.exercise, this.seconds);
    } catch (error) {
      this.context.report('api', t('error.prefixed', { field: 'leaderboard', message: error.message }));
    }
    show(
      h('section', { class: 'challenge finished' },
        h('h1', {}, completed ? t('challenge.time') : t('challenge.stopped')),
        h('p', { class: 'big', id: 'challenge-reps' }, String(reps)),
        h('p', { class: 'caption' }, !completed
          ? t('challenge.endedEarly')
          : ranked ? t('challenge.inTime', { exercise: this.exercise, time: formatSeconds(this.seconds) })
            : t('challenge.replayed')),
        h('div', { class: 'actions' },
          h('button', { id: 'exit', class: 'primary', onClick: () => this.exit() }, t('common.close')))),
      board);
  }

  exit() {
    this.running = false;
    if (this.live) this.live.close();
    this.context.releaseCamera();
    this.context.bridge.post('exit_kinestex', {});
  }

  render(big, caption) {
    show(
      h('section', { class: 'player challenge' },
        h('h1', {}, t('challenge.title', { exercise: this.exercise })),
        h('p', { class: 'big', id: 'rep-count' }, big),
        h('p', { class: 'caption', id: 'time-left' }, caption),
        cueCaption(this.cue),
        h('div', { class: 'actions' }, h('button', { id: 'stop', class: 'quiet', onClick: () => this.finish(null) }, t('challenge.stop')))),
      this.context.stage().shown(true));
  }
}
