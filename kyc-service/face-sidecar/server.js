'use strict';
// kyc face sidecar: raw RGB pixels in (X-Width, X-Height), faces out (box, score, 128-d descriptor). 127.0.0.1 only;
// nothing is written anywhere. Models and the wasm binary ship inside the npm packages (no download at run time).
const http = require('http');
const path = require('path');
const tf = require('@tensorflow/tfjs');
const wasm = require('@tensorflow/tfjs-backend-wasm');
const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');

const port = Number(process.env.FACE_SIDECAR_PORT || 8091);
// low enough to find a printed portrait; kyc-service applies its own, higher score to count faces on a selfie
const minConfidence = Number(process.env.FACE_SIDECAR_MIN_CONFIDENCE || 0.3);
const model = 'face-api ' + require('@vladmandic/face-api/package.json').version
  + ' (SSD MobileNet v1 detector, 68-point landmarks, ResNet-34 128-d face descriptor)';
const modelDir = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
let ready = false;

async function start() {
  wasm.setWasmPaths(path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + '/');
  await tf.setBackend('wasm');
  await tf.ready();
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(modelDir);
  await faceapi.nets.faceLandmark68Net.loadFromDisk(modelDir);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(modelDir);
  ready = true;
  console.log(JSON.stringify({ msg: 'face sidecar ready', backend: tf.getBackend(), model, port }));
}

function centre(points) {
  return { x: points.reduce((s, p) => s + p.x, 0) / points.length, y: points.reduce((s, p) => s + p.y, 0) / points.length };
}

async function faces(body, width, height) {
  const input = tf.tensor3d(new Uint8Array(body.buffer, body.byteOffset, body.length), [height, width, 3], 'int32');
  try {
    const found = await faceapi.detectAllFaces(input, new faceapi.SsdMobilenetv1Options({ minConfidence, maxResults: 10 }))
      .withFaceLandmarks().withFaceDescriptors();
    return found.map((f) => ({
      score: f.detection.score,
      box: { x: f.detection.box.x, y: f.detection.box.y, width: f.detection.box.width, height: f.detection.box.height },
      // eye centres (image-left first), from the 68 landmarks: kyc-service aligns face crops on them
      eyes: [centre(f.landmarks.getLeftEye()), centre(f.landmarks.getRightEye())],
      descriptor: Array.from(f.descriptor),
    }));
  } finally {
    tf.dispose(input);
  }
}

http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health') {
    res.writeHead(ready ? 200 : 503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: ready ? 'UP' : 'DOWN', model, backend: ready ? tf.getBackend() : null }));
    return;
  }
  const width = Number(req.headers['x-width']);
  const height = Number(req.headers['x-height']);
  if (req.method !== 'POST' || req.url !== '/faces' || !(width > 0 && height > 0 && width * height <= 16e6)) {
    res.writeHead(400).end();
    return;
  }
  const chunks = [];
  let size = 0;
  req.on('data', (c) => {
    size += c.length;
    if (size <= width * height * 3) {
      chunks.push(c);
    } else {
      req.destroy(); // more than the declared pixels: not kept
    }
  });
  req.on('end', async () => {
    const body = Buffer.concat(chunks);
    if (!ready || body.length !== width * height * 3) {
      res.writeHead(ready ? 400 : 503).end();
      return;
    }
    try {
      const t0 = Date.now();
      const out = await faces(body, width, height);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ faces: out, millis: Date.now() - t0 }));
    } catch (e) {
      console.error(JSON.stringify({ msg: 'inference failed', error: String(e && e.message) }));
      res.writeHead(500).end();
    }
  });
}).listen(port, '127.0.0.1');
start().catch((e) => { console.error(e); process.exit(1); });
