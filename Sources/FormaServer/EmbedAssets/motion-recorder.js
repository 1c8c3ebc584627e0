// The phone's motion as the API's recording (docs/fitness-tests.md, "The page"): `devicemotion` events turned into
// samples in g and deg/s with Core Motion's signs, collected for the test's 30 seconds on the sensor's own time, and
// written with a sample rate or per-sample times (POST /v1/fitness-tests/motion).
export const TEST_SECONDS = 30;
const STANDARD_GRAVITY = 9.80665; // m/s² per g
const MAXIMUM_SAMPLES = 120000; // the API's limit

const round4 = (value) => Math.round(value * 10000) / 10000;

// One `devicemotion` event as the API's sample: acceleration in g with gravity included, in Core Motion's sign
// (a phone held upright at rest reads y = −1; the web reports the opposite, +9.81 m/s²), rotation rate in deg/s
// about x, y, z (the web's beta, gamma, alpha). `null` for an event without acceleration (desktop browsers send one).
export function motionSample(event) {
  const a = event.accelerationIncludingGravity;
  if (!a || ![a.x, a.y, a.z].every(Number.isFinite)) return null;
  const r = event.rotationRate;
  const gyro = r && [r.beta, r.gamma, r.alpha].every(Number.isFinite) ? [r.beta, r.gamma, r.alpha].map(round4) : null;
  // `interval` is milliseconds in the specification; older WebKit gave seconds (below 1: no sensor runs at 1 kHz).
  let interval = Number.isFinite(event.interval) && event.interval > 0 ? event.interval : null;
  if (interval !== null && interval < 1) interval *= 1000;
  return {
    accel: [a.x, a.y, a.z].map((value) => round4(-value / STANDARD_GRAVITY)),
    gyro,
    interval,
    at: event.timeStamp,
  };
}

// Collects `devicemotion` samples until `seconds` of them are recorded. Time is the samples' own: the sum of each
// event's `interval` (the sensor's period), or the events' time stamps when a browser gives no interval. So the timer
// runs with the sensor and a test can drive it by dispatching events, whatever the speed of the machine.
export class MotionRecorder {
  constructor({ seconds = TEST_SECONDS, onSample = () => {}, onFull = () => {}, target = window } = {}) {
    this.seconds = seconds;
    this.onSample = onSample;
    this.onFull = onFull;
    this.target = target;
    this.samples = [];
    this.recordedAt = null;
    this.listening = false;
    this.listener = (event) => this.take(event);
  }

  start() {
    this.samples = [];
    this.recordedAt = new Date();
    this.listening = true;
    this.target.addEventListener('devicemotion', this.listener);
  }

  stop() {
    this.listening = false;
    this.target.removeEventListener('devicemotion', this.listener);
  }

  take(event) {
    if (!this.listening) return;
    const sample = motionSample(event);
    if (!sample) return;
    this.samples.push(sample);
    const elapsed = this.elapsedSeconds();
    this.onSample(elapsed, this.samples.length);
    if (elapsed >= this.seconds || this.samples.length >= MAXIMUM_SAMPLES) {
      this.stop();
      this.onFull();
    }
  }

  // Seconds each sample ends at: the running sum of intervals (in milliseconds, so 1,500 of 20 ms are exactly 30 s),
  // else time stamps from the first sample's.
  times() {
    if (this.samples.every((sample) => sample.interval !== null)) {
      let sum = 0;
      return this.samples.map((sample) => (sum += sample.interval) / 1000);
    }
    const first = this.samples.length ? this.samples[0].at : 0;
    return this.samples.map((sample) => (sample.at - first) / 1000);
  }

  elapsedSeconds() {
    const times = this.times();
    return times.length ? times[times.length - 1] : 0;
  }

  // The API's MotionRecording: `sampleRate` when every interval is the same, otherwise `t` per sample (strictly
  // increasing: samples whose time does not advance are left out). Gyroscope only when every sample has it.
  recording(exerciseId) {
    let samples = this.samples;
    // Whole seconds: the API's date-time decoding takes no fractional seconds.
    const body = { exerciseId, recordedAt: this.recordedAt.toISOString().replace(/\.\d+Z$/, 'Z') };
    const intervals = new Set(samples.map((sample) => sample.interval));
    if (intervals.size === 1 && samples.length && samples[0].interval !== null) {
      body.sampleRate = round4(1000 / samples[0].interval);
    } else {
      const times = this.times();
      const kept = [];
      const t = [];
      samples.forEach((sample, index) => {
        if (t.length === 0 || times[index] > t[t.length - 1]) {
          kept.push(sample);
          t.push(round4(times[index]));
        }
      });
      samples = kept;
      body.t = t;
    }
    body.accel = samples.map((sample) => sample.accel);
    if (samples.length && samples.every((sample) => sample.gyro)) body.gyro = samples.map((sample) => sample.gyro);
    return body;
  }
}
