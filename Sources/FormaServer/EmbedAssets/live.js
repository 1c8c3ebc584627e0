// A /v1/live session (docs/live-protocol.md): hello with the token, control messages as JSON text, pose frames
// as compact binary, events back as JSON text.

import { speak } from './dom.js';
import { t } from './i18n.js';

const LANDMARKS = 33;

// Reports one live event of a single-exercise view (camera component, challenge) to the host and keeps its tally
// ({reps, mistakes}); returns the cue to show (null to keep the current one), or undefined for other events.
export function reportLiveEvent(bridge, exercise, event, tally) {
  switch (event.type) {
    case 'rep':
      tally.reps += 1;
      bridge.post('successful_repeat', {
        exercise, repeats: tally.reps, quality: event.quality, mistakes: event.mistakes || [],
      });
      return null;
    case 'mistake':
    case 'partial': {
      const entry = tally.mistakes[event.code] || { message: event.message, count: 0 };
      entry.count += 1;
      tally.mistakes[event.code] = entry;
      speak(event.message);
      bridge.post('mistake', { exercise, code: event.code, message: event.message, partial: event.type === 'partial' });
      return event.message;
    }
    case 'left_frame':
      bridge.post('left_camera_frame', { exercise });
      return null;
    case 'returned_frame':
      bridge.post('returned_camera_frame', { exercise });
      return null;
    case 'cheer':
      return cheerCue(event);
    default:
      return undefined;
  }
}

// A follower watching the session cheered (docs/community.md, "Live watching"): the cue that shows it.
export function cheerCue(event) {
  const name = event.from && event.from.displayName;
  return name ? t('live.cheer', { name, text: event.text }) : t('live.cheerAnonymous', { text: event.text });
}

// The tally's mistakes as exercise_completed lists them.
export function mistakeList(mistakes) {
  return Object.entries(mistakes).map(([code, entry]) => ({ code, message: entry.message, count: entry.count }));
}

// Encodes one frame: version 1, flags, landmark count, Float64 time, then x, y, z, visibility as Float32.
export function encodeFrame(timeSeconds, landmarks) {
  const present = Array.isArray(landmarks) && landmarks.length === LANDMARKS;
  const buffer = new ArrayBuffer(12 + (present ? LANDMARKS * 16 : 0));
  const view = new DataView(buffer);
  view.setUint8(0, 1);
  view.setUint8(1, present ? 1 : 0);
  view.setUint16(2, present ? LANDMARKS : 0, true);
  view.setFloat64(4, timeSeconds, true);
  if (present) {
    landmarks.forEach((point, index) => {
      const offset = 12 + index * 16;
      view.setFloat32(offset, point[0], true);
      view.setFloat32(offset + 4, point[1], true);
      view.setFloat32(offset + 8, point[2] ?? 0, true);
      view.setFloat32(offset + 12, point[3] ?? 1, true);
    });
  }
  return buffer;
}

export class LiveSession {
  constructor({ token, onEvent, onClose }) {
    this.token = token;
    this.onEvent = onEvent;
    this.onClose = onClose;
    this.socket = null;
    this.firstFrameTime = null;
    this.lastSentTime = -Infinity;
    this.started = false;
    this.paused = false;
    this.keepAlive = null;
    this.summaryWaiters = [];
    this.closed = false;
  }

  // Opens the socket and resolves once the server says `ready`.
  open() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${scheme}://${location.host}/v1/live`);
      socket.binaryType = 'arraybuffer';
      this.socket = socket;
      let ready = false;
      socket.onopen = () => socket.send(JSON.stringify({ type: 'hello', token: this.token }));
      socket.onmessage = (message) => {
        let event;
        try {
          event = JSON.parse(message.data);
        } catch (error) {
          return;
        }
        if (event.type === 'ready') {
          ready = true;
          // A person resting sends no frames; a repeated pause keeps the session from its idle limit.
          this.keepAlive = setInterval(() => {
            if (this.paused) this.send({ type: 'pause' });
          }, 10000);
          resolve(event);
          return;
        }
        if (event.type === 'summary') {
          this.summaryWaiters.splice(0).forEach((waiter) => waiter(event));
        }
        this.onEvent(event);
      };
      socket.onclose = (close) => {
        this.closed = true;
        clearInterval(this.keepAlive);
        this.summaryWaiters.splice(0).forEach((waiter) => waiter(null));
        if (!ready) reject(new Error(close.reason || t('live.closed', { code: String(close.code) })));
        if (this.onClose) this.onClose(close);
      };
    });
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  // Starts counting `exercise` (first set) or moves to a new set or exercise (later ones).
  // `source` is 'camera' or 'replay' (a recorded file: counted, never ranked).
  startSet({ exercise, exerciseId, workoutId, aspectRatio, challengeSeconds, source }) {
    if (!this.started) {
      // The pages draw the repetition ring, so they ask for progress events.
      const start = { type: 'start', exercise, progress: true };
      if (source) start.source = source;
      if (workoutId) start.workoutId = workoutId;
      if (challengeSeconds) start.challengeSeconds = challengeSeconds;
      if (exerciseId) start.exerciseId = exerciseId;
      if (aspectRatio) start.aspectRatio = Math.min(10, Math.max(0.1, aspectRatio));
      this.send(start);
      this.started = true;
    } else {
      const next = { type: 'exercise', exercise };
      if (exerciseId) next.exerciseId = exerciseId;
      this.send(next);
    }
    this.paused = false;
    this.send({ type: 'resume' });
  }

  pause() {
    this.paused = true;
    this.send({ type: 'pause' });
  }

  resume() {
    this.paused = false;
    this.send({ type: 'resume' });
  }

  // Sends one frame; times are made relative to the session's first frame and kept strictly increasing.
  sendFrame(timeSeconds, landmarks) {
    if (!this.started || this.paused || !this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    if (this.firstFrameTime === null) this.firstFrameTime = timeSeconds;
    const t = timeSeconds - this.firstFrameTime;
    if (t <= this.lastSentTime) return;
    this.lastSentTime = t;
    this.socket.send(encodeFrame(t, landmarks));
  }

  // Ends the last set; resolves with the summary (or null if the socket closed first).
  end() {
    if (this.closed) return Promise.resolve(null);
    const summary = new Promise((resolve) => this.summaryWaiters.push(resolve));
    if (this.started) {
      this.paused = false;
      this.send({ type: 'end' });
    } else {
      this.close();
    }
    return summary;
  }

  close() {
    clearInterval(this.keepAlive);
    if (this.socket && this.socket.readyState <= WebSocket.OPEN) this.socket.close(1000, 'done');
  }
}
