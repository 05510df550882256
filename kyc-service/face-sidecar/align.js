'use strict';
// The five-point alignment face recognisers of the ArcFace family are trained with: eye centres, nose tip and mouth
// corners mapped by a similarity transform (rotation, uniform scale, shift; least squares, Umeyama 1991) onto fixed
// points of a 112 × 112 crop (insightface's reference template).
const SIZE = 112;
const TEMPLATE = [[38.2946, 51.6963], [73.5318, 51.5014], [56.0252, 71.7366], [41.5493, 92.3655], [70.7299, 92.2041]];

function mean(points) {
  return [points.reduce((s, p) => s + p.x, 0) / points.length, points.reduce((s, p) => s + p.y, 0) / points.length];
}

/** The five points from face-api's 68 landmarks (iBUG 300-W numbering): eye centres, nose tip, mouth corners. */
function fivePoints(landmarks) {
  const p = landmarks.positions;
  return [mean(p.slice(36, 42)), mean(p.slice(42, 48)), [p[30].x, p[30].y], [p[48].x, p[48].y], [p[54].x, p[54].y]];
}

/** The similarity transform taking src onto dst in the least-squares sense: x' = c·x − s·y + tx, y' = s·x + c·y + ty. */
function similarity(src, dst) {
  const n = src.length;
  let mx = 0; let my = 0; let ux = 0; let uy = 0;
  for (let i = 0; i < n; i++) {
    mx += src[i][0]; my += src[i][1]; ux += dst[i][0]; uy += dst[i][1];
  }
  mx /= n; my /= n; ux /= n; uy /= n;
  let a = 0; let b = 0; let v = 0;
  for (let i = 0; i < n; i++) {
    const sx = src[i][0] - mx; const sy = src[i][1] - my; const dx = dst[i][0] - ux; const dy = dst[i][1] - uy;
    a += sx * dx + sy * dy;
    b += sx * dy - sy * dx;
    v += sx * sx + sy * sy;
  }
  const c = a / v; const s = b / v;
  return { c, s, tx: ux - (c * mx - s * my), ty: uy - (s * mx + c * my) };
}

/**
 * The aligned face as SIZE × SIZE × 3 floats (0-255, RGB), sampled bilinearly from packed RGB pixels; outside the image
 * is black. With mirrored = true, the crop flipped left to right (the recogniser is asked about both and the two
 * descriptors summed, as its authors evaluate it).
 */
function alignedCrop(rgb, width, height, points, mirrored) {
  const t = similarity(points, TEMPLATE);
  const det = t.c * t.c + t.s * t.s;
  const out = new Float32Array(SIZE * SIZE * 3);
  const at = (x, y, ch) => (x < 0 || y < 0 || x >= width || y >= height ? 0 : rgb[(y * width + x) * 3 + ch]);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const dx = x - t.tx; const dy = y - t.ty;
      const sx = (t.c * dx + t.s * dy) / det; const sy = (-t.s * dx + t.c * dy) / det;
      const x0 = Math.floor(sx); const y0 = Math.floor(sy); const fx = sx - x0; const fy = sy - y0;
      const o = (y * SIZE + (mirrored ? SIZE - 1 - x : x)) * 3;
      for (let ch = 0; ch < 3; ch++) {
        out[o + ch] = at(x0, y0, ch) * (1 - fx) * (1 - fy) + at(x0 + 1, y0, ch) * fx * (1 - fy)
          + at(x0, y0 + 1, ch) * (1 - fx) * fy + at(x0 + 1, y0 + 1, ch) * fx * fy;
      }
    }
  }
  return out;
}

module.exports = { SIZE, fivePoints, alignedCrop };
