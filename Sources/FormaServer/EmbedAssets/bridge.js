// The page → host half of the embed protocol (docs/embed-protocol.md): every event is a JSON string
// {"type", "data"} handed to the native bridge that exists, or posted to the host window at a known origin.

// The first integration guide's names, used when the page URL has ?events=2023.
const LEGACY_NAMES = {
  workout_opened: 'workoutOpened',
  workout_started: 'workoutStarted',
  exit_kinestex: 'exitApp',
  error_occurred: 'error_occured',
  workout_completed: 'finished_workout',
};

export class HostBridge {
  constructor({ allowedOrigins = [], vocabulary = 'current' } = {}) {
    this.allowedOrigins = allowedOrigins;
    this.legacy = vocabulary === '2023';
    this.hostOrigin = null; // the origin the configuration came from, once it has
    this.sent = []; // every event, for the page's own diagnostics
  }

  // The name a host of this vocabulary expects.
  name(type) {
    return this.legacy && LEGACY_NAMES[type] ? LEGACY_NAMES[type] : type;
  }

  post(type, data = {}) {
    this.send(JSON.stringify({ type: this.name(type), data }));
  }

  // An event whose fields sit beside `type`, with no `data`, as seed 002 shows the trainer's
  // {"type": "trainer_schedule_next_workout", "scheduledFor": "…"}.
  postFlat(type, fields = {}) {
    this.send(JSON.stringify({ type: this.name(type), ...fields }));
  }

  send(message) {
    this.sent.push(message);
    const ios = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.listener;
    if (ios) return ios.postMessage(message);
    if (window.messageHandler && typeof window.messageHandler.postMessage === 'function') {
      return window.messageHandler.postMessage(message);
    }
    if (window.ReactNativeWebView && typeof window.ReactNativeWebView.postMessage === 'function') {
      return window.ReactNativeWebView.postMessage(message);
    }
    if (window.parent === window) return; // top-level page without a bridge: nobody to tell
    // Never '*': before the configuration arrives, each of the company's origins in turn (the browser delivers
    // only to the one the host really has); afterwards, only the origin the configuration came from.
    const targets = this.hostOrigin ? [this.hostOrigin] : this.allowedOrigins;
    for (const origin of targets) {
      try {
        window.parent.postMessage(message, origin);
      } catch (error) {
        // An origin that is not a valid URL: skip it, the others may still reach the host.
      }
    }
  }
}
