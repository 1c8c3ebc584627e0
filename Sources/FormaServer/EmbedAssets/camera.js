// The camera-only component (/embed/camera) for hosts with their own player: the host names the exercise with
// {"currentExercise": "squat"}, pauses with {"pause": true|false} and stops with {"stopCamera": true}; the page
// counts and reports repetitions, mistakes and framing like the player does.
import { h, show, speak } from './dom.js';
import { LiveSession } from './live.js';

export class CameraView {
  constructor(context) {
    this.context = context;
    this.live = null;
    this.source = null;
    this.exercise = null;
    this.reps = 0;
    this.mistakes = {};
    this.began = 0;
    this.cue = '';
    this.paused = false;
  }

  get bridge() {
    return this.context.bridge;
  }

  async open() {
    this.render();
    const first = this.context.params.get('exercise');
    if (first) await this.command({ currentExercise: first });
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
          if (close.code !== 1000) this.context.report('live', `live: ${close.reason || `closed (${close.code})`}`);
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
    this.reps = 0;
    this.mistakes = {};
    this.began = performance.now();
    this.live.startSet({ exercise, aspectRatio: this.source.aspectRatio });
    this.source.onFrame = (t, landmarks) => {
      if (this.live && !this.paused) this.live.sendFrame(t, landmarks);
    };
    this.source.onEnd = () => setTimeout(() => this.completeExercise(), 300);
    this.render();
    if (!this.paused) this.source.start();
  }

  completeExercise() {
    if (!this.exercise) return;
    this.bridge.post('exercise_completed', {
      exercise: this.exercise,
      repeats: this.reps,
      timeSpent: Math.round((performance.now() - this.began) / 1000),
      mistakes: Object.entries(this.mistakes).map(([code, entry]) => ({ code, message: entry.message, count: entry.count })),
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
    if (!this.exercise) return;
    switch (event.type) {
      case 'rep':
        this.reps += 1;
        this.bridge.post('successful_repeat', {
          exercise: this.exercise, repeats: this.reps, quality: event.quality, mistakes: event.mistakes || [],
        });
        break;
      case 'mistake':
      case 'partial': {
        const entry = this.mistakes[event.code] || { message: event.message, count: 0 };
        entry.count += 1;
        this.mistakes[event.code] = entry;
        this.cue = event.message;
        speak(event.message);
        this.bridge.post('mistake', {
          exercise: this.exercise, code: event.code, message: event.message, partial: event.type === 'partial',
        });
        break;
      }
      case 'left_frame':
        this.bridge.post('left_camera_frame', { exercise: this.exercise });
        break;
      case 'returned_frame':
        this.bridge.post('returned_camera_frame', { exercise: this.exercise });
        break;
      default:
        return;
    }
    this.render();
  }

  render() {
    show(
      h('section', { class: 'player camera-only' },
        h('h1', {}, this.exercise || 'Waiting for an exercise'),
        h('p', { class: 'big', id: 'rep-count' }, String(this.reps)),
        h('p', { class: 'cue', id: 'cue', role: 'status' }, this.cue),
        this.paused ? h('p', { class: 'paused' }, 'Paused') : null),
      this.context.videoElement());
  }
}
