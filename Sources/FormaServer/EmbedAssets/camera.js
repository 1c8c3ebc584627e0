// The camera-only component (/embed/camera) for hosts with their own player: the host names the exercise with
// {"currentExercise": "squat"} (in its configuration message or any later one), pauses with {"pause": true|false} and stops with {"stopCamera": true}; the page
// counts and reports repetitions, mistakes and framing like the player does.
import { cueCaption } from './captions.js';
import { h, show } from './dom.js';
import { LiveSession, cheerCue, reportLiveEvent, mistakeList } from './live.js';
import { stageEvent } from './overlay.js';
import { t } from './i18n.js';

export class CameraView {
  constructor(context) {
    this.context = context;
    this.live = null;
    this.source = null;
    this.exercise = null;
    this.tally = { reps: 0, mistakes: {} };
    this.began = 0;
    this.cue = '';
    this.paused = false;
  }

  get bridge() {
    return this.context.bridge;
  }

  // The first exercise: the host's configuration message may name it (`currentExercise`), else the URL's `exercise`.
  async open(config = {}) {
    this.render();
    const named = typeof config.currentExercise === 'string' && config.currentExercise.trim() ? config.currentExercise : null;
    const first = named || this.context.params.get('exercise');
    if (first) await this.command({ currentExercise: first });
    if (config.pause === true) await this.command({ pause: true });
  }

  async command(message) {
    if (typeof message.currentExercise === 'string' && message.currentExercise) {
      await this.switchTo(message.currentExercise.trim().toLowerCase());
    } else if (typeof message.pause === 'boolean') {
      this.paused = message.pause;
      if (this.paused) {
        if (this.source) this.source.stop();
        if (this.live) this.live.pause();
      } else {
        if (this.live) this.live.resume();
        if (this.source) this.source.start();
      }
      this.render();
    } else if (message.stopCamera === true) {
      await this.stop();
    }
  }

  async switchTo(exercise) {
    this.completeExercise();
    if (!this.source) {
      this.source = await this.context.poseSource();
      if (!this.source) return;
    }
    if (!this.live) {
      this.live = new LiveSession({
        token: this.context.api.token,
        onEvent: (event) => this.liveEvent(event),
        onClose: (close) => {
          if (close.code !== 1000) this.context.report('live', `live: ${close.reason || t('live.closed', { code: String(close.code) })}`);
          this.live = null;
          if (this.source) this.source.stop();
        },
      });
      try {
        await this.live.open();
      } catch (error) {
        this.live = null;
        this.context.report('live', `live: ${error.message}`);
        return;
      }
    }
    this.exercise = exercise;
    this.tally = { reps: 0, mistakes: {} };
    this.began = performance.now();
    this.live.startSet({ exercise, aspectRatio: this.source.aspectRatio, source: this.source.kind });
    const stage = this.context.stage();
    stage.begin(this.source);
    this.source.onFrame = (t, landmarks) => {
      if (this.live && !this.paused) this.live.sendFrame(t, landmarks);
      stage.frame(landmarks);
    };
    this.source.onEnd = () => setTimeout(() => this.completeExercise(), 300);
    this.render();
    if (!this.paused) this.source.start();
  }

  completeExercise() {
    if (!this.exercise) return;
    this.bridge.post('exercise_completed', {
      exercise: this.exercise,
      repeats: this.tally.reps,
      timeSpent: Math.round((performance.now() - this.began) / 1000),
      mistakes: mistakeList(this.tally.mistakes),
    });
    this.exercise = null;
  }

  async stop() {
    this.completeExercise();
    if (this.source) this.source.stop();
    if (this.live) {
      const live = this.live;
      this.live = null;
      await live.end();
      live.close();
    }
    this.context.releaseCamera();
    this.render();
  }

  liveEvent(event) {
    if (event.type === 'cheer') {
      // A follower's cheer is shown between exercises too, while the session is open.
      this.cue = cheerCue(event);
      this.render();
      return;
    }
    if (!this.exercise) return;
    const cue = reportLiveEvent(this.bridge, this.exercise, event, this.tally);
    stageEvent(this.context.stage(), event, this.tally.reps);
    if (cue === undefined) return;
    if (cue !== null) this.cue = cue;
    this.render();
  }


  render() {
    show(
      h('section', { class: 'player camera-only' },
        h('h1', {}, this.exercise || t('camera.waiting')),
        h('p', { class: 'big', id: 'rep-count' }, String(this.tally.reps)),
        cueCaption(this.cue),
        this.paused ? h('p', { class: 'paused' }, t('player.paused')) : null),
      this.context.stage().shown(Boolean(this.exercise && this.source)));
  }
}
