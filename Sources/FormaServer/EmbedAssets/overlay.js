// The camera stage (docs/embed.md, "Camera view"): the video, or the replayed skeleton alone, with the tracked body
// drawn over it, the joint the exercise measures highlighted with its value, a repetition ring that fills with the
// server's `progress` events (docs/live-protocol.md) and holds the count, and guidance when the person is not in
// the picture. The drawing is decoration for sighted people; the count and cues are announced by the views' live
// regions and the guidance by its own, so the SVG is hidden from screen readers.
import { h, svg } from './dom.js';
import { LANDMARKS, SkeletonDrawing } from './skeleton.js';
import { t, formatNumber } from './i18n.js';

const WIDTH = 1000;
const RING_RADIUS = 70;
const RING_LENGTH = 2 * Math.PI * RING_RADIUS;
export class CameraStage {
  constructor(video) {
    this.video = video;
    this.height = WIDTH;
    this.latest = null;
    this.scheduled = false;
    this.measured = [];
    this.skeleton = new SkeletonDrawing();
    this.angle = svg('text', { class: 'angle' });
    this.ringFill = svg('circle', {
      class: 'ring-fill', r: RING_RADIUS, 'stroke-dasharray': `0 ${RING_LENGTH}`, transform: 'rotate(-90)',
    });
    this.ringCount = svg('text', { class: 'ring-count', 'text-anchor': 'middle', 'dominant-baseline': 'central' }, '0');
    this.ring = svg('g', { class: 'ring', 'data-fraction': '0' },
      svg('circle', { class: 'ring-track', r: RING_RADIUS }), this.ringFill, this.ringCount);
    this.body = svg('g', {}, this.skeleton.element, this.angle);
    this.overlay = svg('svg', { class: 'overlay', 'aria-hidden': 'true', id: 'overlay' }, this.body, this.ring);
    this.guidance = h('p', { class: 'guidance', id: 'guidance', role: 'status', hidden: true });
    this.element = h('div', { class: 'stage', id: 'stage' }, video, this.overlay, this.guidance);
    this.layout(4 / 3, false);
  }

  // The picture's shape, and whether it is a mirrored camera (the person sees themself as in a mirror).
  layout(aspectRatio, mirrored) {
    const ratio = Number.isFinite(aspectRatio) && aspectRatio > 0 ? aspectRatio : 4 / 3;
    this.height = Math.round(WIDTH / ratio);
    this.overlay.setAttribute('viewBox', `0 0 ${WIDTH} ${this.height}`);
    this.body.setAttribute('transform', mirrored ? `translate(${WIDTH} 0) scale(-1 1)` : '');
    this.mirrored = mirrored;
    this.ring.setAttribute('transform', `translate(${WIDTH - RING_RADIUS - 30} ${RING_RADIUS + 30})`);
    this.element.style.setProperty('--stage-ratio', String(ratio));
  }

  // The stage's element, shown only while the view counts with the camera.
  shown(visible) {
    this.element.hidden = !visible;
    return this.element;
  }

  // A new set: the source's picture, an empty ring, no highlighted joint.
  begin(source) {
    this.layout(source.aspectRatio, source.kind === 'camera');
    this.element.classList.toggle('replay', source.kind !== 'camera');
    this.setCount(0);
    this.progress(null);
    this.presence(true);
    this.latest = null;
    this.body.setAttribute('visibility', 'hidden');
  }

  // Landmarks of one frame, [x, y, z, visibility] each in the picture's 0–1 coordinates; drawn once per display frame.
  frame(landmarks) {
    this.latest = Array.isArray(landmarks) && landmarks.length === LANDMARKS ? landmarks : null;
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.draw();
    });
  }

  draw() {
    const points = this.latest;
    if (!points) {
      this.body.setAttribute('visibility', 'hidden');
      return;
    }
    this.body.setAttribute('visibility', 'visible');
    const at = (index) => [points[index][0] * WIDTH, points[index][1] * this.height];
    this.skeleton.draw(at, (index) => (points[index][3] ?? 1) >= 0.5);
    if (this.measured.length > 0) {
      const joint = this.measured[Math.floor(this.measured.length / 2)];
      const [x, y] = at(joint);
      // The label reads left to right even over a mirrored picture.
      this.angle.setAttribute('x', (this.mirrored ? WIDTH - x : x).toFixed(1));
      this.angle.setAttribute('y', (y - 30).toFixed(1));
      this.angle.setAttribute('transform', this.mirrored ? `translate(${WIDTH} 0) scale(-1 1)` : '');
    }
  }

  // The server's `progress` event (or null to clear): the ring's fill, the measured joints and their value.
  progress(event) {
    const fraction = event ? Math.max(0, Math.min(1, Number(event.fraction) || 0)) : 0;
    this.ringFill.setAttribute('stroke-dasharray', `${(fraction * RING_LENGTH).toFixed(1)} ${RING_LENGTH.toFixed(1)}`);
    this.ring.dataset.fraction = fraction.toFixed(2);
    this.ring.classList.toggle('full', fraction >= 1);
    this.measured = event && Array.isArray(event.landmarks) ? event.landmarks.filter((i) => i >= 0 && i < LANDMARKS) : [];
    this.skeleton.highlight(this.measured);
    if (event && Number.isFinite(event.value)) {
      this.angle.textContent = event.unit === 'degrees'
        ? formatNumber(Math.round(event.value), { style: 'unit', unit: 'degree', unitDisplay: 'narrow' })
        : formatNumber(event.value, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    } else {
      this.angle.textContent = '';
    }
  }

  setCount(count) {
    this.ringCount.textContent = String(count);
    this.ring.dataset.count = String(count);
  }

  // Whether the person is in the picture (the server's left_frame / returned_frame).
  presence(visible) {
    this.guidance.hidden = visible;
    this.guidance.textContent = visible ? '' : t('camera.moveBack');
    this.element.classList.toggle('away', !visible);
    if (!visible) this.progress(null);
  }
}

// What a live event changes on the stage; `count` is the view's repetition count after the event.
export function stageEvent(stage, event, count) {
  switch (event.type) {
    case 'progress': stage.progress(event); break;
    case 'rep': stage.setCount(count); break;
    case 'left_frame': stage.presence(false); break;
    case 'returned_frame': stage.presence(true); break;
    default: break;
  }
}
