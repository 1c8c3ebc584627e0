// The timed challenge (/embed/challenge?exercise=squat&duration=60) and its leaderboard (/embed/leaderboard?…):
// the server counts and times the challenge (docs/live-protocol.md, "Timed challenges") and ranks each person's best
// within the company (GET /v1/challenges/leaderboard).
import { h, show, formatSeconds, sleep } from './dom.js';
import { LiveSession, reportLiveEvent, mistakeList } from './live.js';
import { stageEvent } from './overlay.js';

export function challengeParameters(params) {
  const exercise = (params.get('exercise') || '').trim().toLowerCase();
  const seconds = Number(params.get('duration') || '60');
  if (!exercise) return { problem: 'exercise: the URL must name the exercise (?exercise=squat)' };
  if (!Number.isInteger(seconds) || seconds < 10 || seconds > 600) {
    return { problem: 'duration: must be a whole number of seconds from 10 to 600' };
  }
  return { exercise, seconds };
}

export async function leaderboard(context, exercise, seconds) {
  const query = new URLSearchParams({ exercise, seconds: String(seconds), limit: '10' });
  const board = await context.api.get(`/v1/challenges/leaderboard?${query}`);
  const row = (entry) => h('tr', { class: entry.isMe ? 'me' : null },
    h('td', {}, String(entry.rank)), h('td', {}, entry.isMe ? `${entry.name} (you)` : entry.name),
    h('td', { class: 'reps' }, String(entry.reps)));
  const rows = board.entries.map(row);
  if (board.me && !board.entries.some((entry) => entry.isMe)) rows.push(row(board.me));
  return h('section', { class: 'leaderboard' },
    h('h2', {}, `Leaderboard · ${exercise} · ${formatSeconds(seconds)}`),
    rows.length === 0
      ? h('p', { class: 'meta', id: 'leaderboard-empty' }, 'No scores yet. Be the first.')
      : h('table', { id: 'leaderboard' },
        h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'Name'), h('th', {}, 'Reps'))),
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
      show(await leaderboard(this.context, exercise, seconds),
        h('button', { id: 'exit', class: 'quiet', onClick: () => this.context.bridge.post('exit_kinestex', {}) }, 'Close'));
    } catch (error) {
      this.context.fail('api', `leaderboard: ${error.message}`);
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
      return this.context.fail(error.status === 422 ? 'configuration' : 'api', `challenge: ${error.message}`);
    }
    show(
      h('section', { class: 'challenge' },
        h('h1', {}, `${exercise} challenge`),
        h('p', { class: 'meta' }, `As many as you can in ${formatSeconds(seconds)}.`),
        h('div', { class: 'actions' },
          h('button', { id: 'start', class: 'primary', onClick: () => this.start() }, 'Start challenge'),
          h('button', { id: 'exit', class: 'quiet', onClick: () => this.exit() }, 'Exit'))),
      board);
  }

  async start() {
    if (this.running) return;
    this.running = true;
    for (let left = 3; left > 0; left -= 1) {
      this.render(String(left), 'Get ready');
      await sleep(1000);
    }
    const source = await this.context.poseSource();
    if (!source) return this.render('—', 'No camera');
    this.live = new LiveSession({
      token: this.context.api.token,
      onEvent: (event) => this.liveEvent(event),
      onClose: (close) => {
        if (close.code !== 1000) this.context.report('live', `live: ${close.reason || `closed (${close.code})`}`);
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
      this.render(String(this.tally.reps), `${formatSeconds(Math.max(0, left))} left`);
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
      this.context.report('api', `leaderboard: ${error.message}`);
    }
    show(
      h('section', { class: 'challenge finished' },
        h('h1', {}, completed ? 'Time!' : 'Challenge stopped'),
        h('p', { class: 'big', id: 'challenge-reps' }, String(reps)),
        h('p', { class: 'caption' }, !completed
          ? 'The challenge ended before its time was up, so this try is not ranked.'
          : ranked ? `${this.exercise} in ${formatSeconds(this.seconds)}`
            : 'A replayed recording is counted but never ranked.'),
        h('div', { class: 'actions' },
          h('button', { id: 'exit', class: 'primary', onClick: () => this.exit() }, 'Close'))),
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
        h('h1', {}, `${this.exercise} challenge`),
        h('p', { class: 'big', id: 'rep-count' }, big),
        h('p', { class: 'caption', id: 'time-left' }, caption),
        h('p', { class: 'cue', id: 'cue', role: 'status' }, this.cue),
        h('div', { class: 'actions' }, h('button', { id: 'stop', class: 'quiet', onClick: () => this.finish(null) }, 'Stop'))),
      this.context.stage().shown(true));
  }
}
