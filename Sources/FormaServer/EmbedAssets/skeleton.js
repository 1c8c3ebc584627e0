// A body drawn from the 33 BlazePose landmarks, as the demonstration (exercises.js) and the camera stage
// (overlay.js) show it: bones, joints, the head as a circle (the face's landmarks are not drawn), and the landmarks
// of the counter's measure highlighted.
import { svg } from './dom.js';

export const LANDMARKS = 33;

// The bones between landmarks, without the face's.
export const BONES = [
  [11, 12], [11, 23], [12, 24], [23, 24],
  [11, 13], [13, 15], [15, 17], [15, 19], [15, 21], [17, 19],
  [12, 14], [14, 16], [16, 18], [16, 20], [16, 22], [18, 20],
  [23, 25], [25, 27], [27, 29], [29, 31], [27, 31],
  [24, 26], [26, 28], [28, 30], [30, 32], [28, 32],
];

export class SkeletonDrawing {
  constructor() {
    this.head = svg('circle', { class: 'head' });
    this.bones = BONES.map(() => svg('line', { class: 'bone' }));
    this.joints = Array.from({ length: LANDMARKS }, (_, index) => svg('circle', {
      class: index <= 10 ? 'joint face' : 'joint', r: 9,
    }));
    this.element = svg('g', { class: 'body' }, this.head, this.bones, this.joints);
  }

  // Moves everything to a frame: `at(index)` gives a landmark's [x, y] in the drawing's units, `seen(index)`
  // whether the tracker is sure of it (unsure ones are drawn faint).
  draw(at, seen = () => true) {
    BONES.forEach(([a, b], i) => {
      const [x1, y1] = at(a);
      const [x2, y2] = at(b);
      const line = this.bones[i];
      line.setAttribute('x1', x1.toFixed(1));
      line.setAttribute('y1', y1.toFixed(1));
      line.setAttribute('x2', x2.toFixed(1));
      line.setAttribute('y2', y2.toFixed(1));
    });
    this.joints.forEach((joint, index) => {
      const [x, y] = at(index);
      joint.setAttribute('cx', x.toFixed(1));
      joint.setAttribute('cy', y.toFixed(1));
      joint.classList.toggle('unseen', !seen(index));
    });
    // The head: a circle about the ears' midpoint, sized from the shoulders' distance to the hips.
    const mid = (a, b) => at(a).map((value, i) => (value + at(b)[i]) / 2);
    const [earX, earY] = mid(7, 8);
    const [shoulderX, shoulderY] = mid(11, 12);
    const [hipX, hipY] = mid(23, 24);
    this.head.setAttribute('cx', earX.toFixed(1));
    this.head.setAttribute('cy', earY.toFixed(1));
    this.head.setAttribute('r', (Math.hypot(shoulderX - hipX, shoulderY - hipY) * 0.22).toFixed(1));
  }

  // The landmarks of the counter's measure, drawn larger and in another colour.
  highlight(indices) {
    this.joints.forEach((joint, index) => joint.classList.toggle('measured', indices.includes(index)));
  }
}
