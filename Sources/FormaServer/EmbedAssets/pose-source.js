// Where landmarks come from: MediaPipe's pose landmarker on the camera, or a recorded pose file (?replay=URL,
// DESIGN.md's format). Both hand frames to the same callback, so everything after the landmarks is one code path.
import { t } from './i18n.js';

export class ReplaySource {
  constructor(url) {
    this.kind = 'replay';
    this.url = url;
    this.frames = [];
    this.index = 0;
    this.running = false;
    this.timer = null;
    this.onFrame = null;
    this.onEnd = null;
    this.aspectRatio = 1;
  }

  async prepare() {
    let response;
    try {
      response = await fetch(this.url, { mode: 'cors', credentials: 'omit' });
    } catch (error) {
      throw new Error(t('replay.unreachable', { url: this.url }));
    }
    if (!response.ok) throw new Error(t('replay.status', { url: this.url, status: String(response.status) }));
    let recording;
    try {
      recording = await response.json();
    } catch (error) {
      throw new Error(t('replay.notJson'));
    }
    if (!recording || !Array.isArray(recording.frames) || recording.frames.length === 0) {
      throw new Error(t('replay.noFrames'));
    }
    this.frames = recording.frames;
    if (typeof recording.aspectRatio === 'number') this.aspectRatio = recording.aspectRatio;
  }

  get ended() {
    return this.index >= this.frames.length;
  }

  // Plays from where it stopped, at the recording's own pace.
  start() {
    if (this.running || this.ended) return;
    this.running = true;
    const origin = performance.now() / 1000 - this.frames[this.index].t;
    const tick = () => {
      if (!this.running) return;
      const now = performance.now() / 1000 - origin;
      let sent = 0;
      // At most two frames per tick, so a late timer never bursts past the server's frame rate.
      while (!this.ended && this.frames[this.index].t <= now && sent < 2) {
        const frame = this.frames[this.index];
        this.index += 1;
        sent += 1;
        if (this.onFrame) this.onFrame(frame.t, frame.landmarks);
      }
      if (this.ended) {
        this.running = false;
        if (this.onEnd) this.onEnd();
        return;
      }
      this.timer = setTimeout(tick, 15);
    };
    tick();
  }

  stop() {
    this.running = false;
    clearTimeout(this.timer);
  }
}

export class CameraSource {
  constructor(settings, video) {
    this.kind = 'camera';
    this.settings = settings;
    this.video = video;
    this.running = false;
    this.onFrame = null;
    this.onEnd = null;
    this.landmarker = null;
    this.stream = null;
    this.lastVideoTime = -1;
    this.aspectRatio = 4 / 3;
  }

  async prepare() {
    let vision;
    try {
      vision = await import(this.settings.script);
    } catch (error) {
      throw new Error(t('camera.noModel'));
    }
    const fileset = await vision.FilesetResolver.forVisionTasks(this.settings.wasm);
    this.landmarker = await vision.PoseLandmarker.createFromOptions(fileset, {
      baseOptions: { modelAssetPath: this.settings.model, delegate: 'GPU' },
      runningMode: 'VIDEO',
      numPoses: 1,
    });
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user' }, audio: false });
    } catch (error) {
      throw new Error(t('camera.denied'));
    }
    this.video.srcObject = this.stream;
    await this.video.play();
    if (this.video.videoHeight > 0) this.aspectRatio = this.video.videoWidth / this.video.videoHeight;
  }

  get ended() {
    return false;
  }

  start() {
    if (this.running) return;
    this.running = true;
    let lastSent = 0;
    const loop = () => {
      if (!this.running) return;
      const now = performance.now();
      // About 30 frames a second, well inside the live session's limit.
      if (this.video.currentTime !== this.lastVideoTime && now - lastSent >= 33) {
        this.lastVideoTime = this.video.currentTime;
        lastSent = now;
        const result = this.landmarker.detectForVideo(this.video, now);
        const pose = result.landmarks && result.landmarks[0];
        const landmarks = pose ? pose.map((p) => [p.x, p.y, p.z, p.visibility ?? 1]) : null;
        if (this.onFrame) this.onFrame(now / 1000, landmarks);
      }
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }

  stop() {
    this.running = false;
  }

  release() {
    this.stop();
    if (this.stream) this.stream.getTracks().forEach((track) => track.stop());
    this.stream = null;
  }
}
