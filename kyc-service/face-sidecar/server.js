'use strict';
// kyc face sidecar: raw RGB pixels in (X-Width, X-Height), faces out (box, score, eyes, two descriptors). 127.0.0.1 only
// unless FACE_SIDECAR_HOST says otherwise, a bearer secret on every request, a bounded queue; only the secret's file is
// written, never an image. Models and the wasm binary ship inside the npm packages and models/ (no download at run time).
const http = require('http');
const path = require('path');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const tf = require('@tensorflow/tfjs');
const wasm = require('@tensorflow/tfjs-backend-wasm');
const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
const align = require('./align');

const port = Number(process.env.FACE_SIDECAR_PORT || 8091);
// loopback by default (the sidecar shares kyc-service's network namespace in the pod); Compose, where the two are
// separate containers on a network of their own, sets 0.0.0.0
const host = process.env.FACE_SIDECAR_HOST || '127.0.0.1';
// low enough to find a printed portrait; kyc-service applies its own, higher score to count faces on a selfie
const minConfidence = Number(process.env.FACE_SIDECAR_MIN_CONFIDENCE || 0.3);
// kyc-service scales every image to at most kyc.face.max-side (1024) along its longer side: nothing larger is accepted
const maxSide = Number(process.env.FACE_SIDECAR_MAX_SIDE || 1024);
// detections run at once (the wasm backend computes on one thread) and requests allowed to wait for them
const concurrency = Number(process.env.FACE_SIDECAR_CONCURRENCY || 1);
const queueLimit = Number(process.env.FACE_SIDECAR_QUEUE || 4);
// an upload that stalls holds its place no longer than this
const requestTimeoutMs = Number(process.env.FACE_SIDECAR_REQUEST_TIMEOUT_MS || 30000);
// a connection must send its headers (and with them its secret) within this, or it is closed. The clock runs from the
// connection's accept, and a detection keeps the event loop from reading sockets for up to a few seconds on a busy
// machine: a deadline near that would close kyc's own waiting connections
const headersTimeoutMs = Number(process.env.FACE_SIDECAR_HEADERS_TIMEOUT_MS || 10000);
// open authenticated sockets at most (kyc holds one per detection running or waiting); beyond it they are refused (503)
const maxConnections = Number(process.env.FACE_SIDECAR_MAX_CONNECTIONS || 64);
// sockets not yet authenticated at most: a new one beyond it closes the oldest (which had the longest to send its
// headers), so a crowd of idle or trickling connections never keeps kyc's own out
const maxPending = Number(process.env.FACE_SIDECAR_MAX_PENDING || 64);
// a refused request's body is discarded at most this long, then its connection is cut
const refusedBodyMs = Number(process.env.FACE_SIDECAR_REFUSED_BODY_MS || 2000);
let tokenFile = null;
const token = secret();
const model = 'face-api ' + require('@vladmandic/face-api/package.json').version
  + ' (SSD MobileNet v1 detector, 68-point landmarks, ResNet-34 128-d descriptor) + MobileFace 256-d descriptor (five-point aligned)';
const modelDir = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
let mobileface;
let ready = false;

async function start() {
  wasm.setWasmPaths(path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + '/');
  await tf.setBackend('wasm');
  await tf.ready();
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(modelDir);
  await faceapi.nets.faceLandmark68Net.loadFromDisk(modelDir);
  await faceapi.nets.faceRecognitionNet.loadFromDisk(modelDir);
  mobileface = await graphModel(path.join(__dirname, 'models', 'mobileface'));
  ready = true;
  console.log(JSON.stringify({ msg: 'face sidecar ready', backend: tf.getBackend(), model, port, maxSide, concurrency, queue: queueLimit }));
}

function centre(points) {
  return { x: points.reduce((s, p) => s + p.x, 0) / points.length, y: points.reduce((s, p) => s + p.y, 0) / points.length };
}

/** A TensorFlow.js graph model from its files (name.json, name.bin), without the network. */
function graphModel(base) {
  const json = JSON.parse(fs.readFileSync(base + '.json'));
  const bin = fs.readFileSync(base + '.bin');
  return tf.loadGraphModel(tf.io.fromMemory({
    modelTopology: json.modelTopology,
    weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
    weightData: bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.length),
  }));
}

/** MobileFace's descriptor of the five-point aligned face and of its mirror image, summed and scaled to length 1. */
async function embedding(pixels, width, height, landmarks) {
  const points = align.fivePoints(landmarks);
  const both = new Float32Array(2 * align.SIZE * align.SIZE * 3);
  both.set(align.alignedCrop(pixels, width, height, points, false), 0);
  both.set(align.alignedCrop(pixels, width, height, points, true), align.SIZE * align.SIZE * 3);
  const input = tf.tensor4d(both, [2, align.SIZE, align.SIZE, 3]);
  const output = mobileface.execute(input);
  try {
    const d = await output.data();
    const k = d.length / 2;
    const sum = new Array(k);
    let norm = 0;
    for (let i = 0; i < k; i++) {
      sum[i] = d[i] + d[k + i];
      norm += sum[i] * sum[i];
    }
    norm = Math.sqrt(norm);
    return sum.map((v) => v / norm);
  } finally {
    tf.dispose([input, output]);
  }
}

async function faces(body, width, height) {
  const input = tf.tensor3d(new Uint8Array(body.buffer, body.byteOffset, body.length), [height, width, 3], 'int32');
  try {
    const found = await faceapi.detectAllFaces(input, new faceapi.SsdMobilenetv1Options({ minConfidence, maxResults: 10 }))
      .withFaceLandmarks().withFaceDescriptors();
    const pixels = new Uint8Array(body.buffer, body.byteOffset, body.length);
    const out = [];
    for (const f of found) {
      out.push({
        score: f.detection.score,
        box: { x: f.detection.box.x, y: f.detection.box.y, width: f.detection.box.width, height: f.detection.box.height },
        // eye centres (image-left first), from the 68 landmarks: kyc-service aligns face crops on them
        eyes: [centre(f.landmarks.getLeftEye()), centre(f.landmarks.getRightEye())],
        descriptor: Array.from(f.descriptor),
        embedding: await embedding(pixels, width, height, f.landmarks),
      });
    }
    return out;
  } finally {
    tf.dispose(input);
  }
}

/**
 * The secret every /faces request carries (Authorization: Bearer): FACE_SIDECAR_TOKEN when given (32 characters or
 * more), otherwise 32 random bytes drawn at each start and written, mode 600, to FACE_SIDECAR_TOKEN_FILE (default:
 * kyc-face-sidecar-<port>/token in the temporary directory), where kyc-service reads it. The file's directory must be
 * this user's own and closed to everyone else (mode 700; created so when missing): nobody else can plant a secret there.
 */
function secret() {
  const given = process.env.FACE_SIDECAR_TOKEN;
  if (given !== undefined) {
    if (given.length < 32) {
      fail('FACE_SIDECAR_TOKEN must be at least 32 characters');
    }
    return given;
  }
  const drawn = crypto.randomBytes(32).toString('hex');
  const file = process.env.FACE_SIDECAR_TOKEN_FILE || path.join(os.tmpdir(), `kyc-face-sidecar-${port}`, 'token');
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || st.uid !== process.getuid() || (st.mode & 0o077) !== 0) {
    fail(`the secret's directory ${dir} must be a directory of this user's, closed to others (mode 700)`);
  }
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, drawn, { mode: 0o600, flag: 'wx' });
  tokenFile = file;
  return drawn;
}

function fail(msg) {
  console.error(JSON.stringify({ msg }));
  process.exit(1);
}

/** Removes the secret's file when it still holds this process's secret (a later sidecar may have drawn its own). */
function removeTokenFile() {
  if (tokenFile === null) {
    return;
  }
  try {
    if (fs.readFileSync(tokenFile, 'utf8') === token) {
      fs.rmSync(tokenFile, { force: true });
    }
  } catch (e) {
    // already gone
  }
  tokenFile = null;
}

/**
 * The sidecar's proof that it holds the shared secret, for kyc's nonce: HMAC-SHA256 keyed with the secret. kyc asks
 * for it before any image (or the secret itself) leaves, so whatever else listens on this port gets neither.
 */
function proof(nonce) {
  return crypto.createHmac('sha256', token).update('kyc-face-sidecar-proof:' + nonce).digest('hex');
}

function authorized(req) {
  const given = Buffer.from(String(req.headers.authorization || ''));
  const expected = Buffer.from('Bearer ' + token);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

// admission: a request either runs, waits in the bounded queue, or is refused at once (503, kyc retries the decision)
let running = 0;
const waiting = [];

function admit() {
  if (running < concurrency) {
    running++;
    return Promise.resolve();
  }
  if (waiting.length >= queueLimit) {
    return null;
  }
  return new Promise((resolve) => waiting.push(resolve));
}

function release() {
  const next = waiting.shift();
  if (next) {
    next();
  } else {
    running--;
  }
}

// the largest body a request may declare: one image of maxSide × maxSide RGB pixels
const maxBody = maxSide * maxSide * 3;

// A refused request is answered at once, before its body is read; the body is then discarded (never buffered) for
// at most refusedBodyMs, so that a caller still sending gets the answer instead of a reset, and its connection is cut
// at the deadline however slowly it trickles.
function refuse(req, res, status, extra) {
  if (!res.headersSent) {
    res.writeHead(status, Object.assign({ connection: 'close' }, extra || {}));
    res.end();
  }
  if (req.complete) {
    return;
  }
  const cut = setTimeout(() => req.socket.destroy(), refusedBodyMs);
  cut.unref();
  req.on('end', () => clearTimeout(cut));
  req.on('close', () => clearTimeout(cut));
  req.on('error', () => {});
  req.resume();
}

// An authenticated request's refusal (kyc's own: size, busy), when it declared a body of an acceptable size, waits for
// that body, read and discarded, before the answer: closing the one-request connection with its upload still arriving
// would reset it, and kyc would lose the answer. A larger or undeclared body is answered at once.
function refuseRead(req, res, status, extra) {
  const length = Number(req.headers['content-length']);
  if (req.complete || !(length > 0 && length <= maxBody)) {
    refuse(req, res, status, extra);
    return;
  }
  req.on('end', () => refuse(req, res, status, extra));
  req.on('error', () => {});
  req.resume();
}

// admission of connections: a socket is pending until its request is authenticated, trusted after
const pending = new Set();
const trusted = new Set();
let stopping = false;

// a socket that has not sent its headers within headersTimeoutMs is closed (checked every 250 ms): an unauthenticated
// connection holds nothing but its socket, and only briefly
const server = http.createServer({ headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: 250 }, (req, res) => {
  // one request per connection: an idle kept-alive socket would be closed by the header deadline under the client's feet
  res.shouldKeepAlive = false;
  req.socket.requesting = true;
  if (req.method === 'GET' && req.url === '/health') {
    res.writeHead(ready ? 200 : 503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: ready ? 'UP' : 'DOWN', model, backend: ready ? tf.getBackend() : null }));
    return;
  }
  if (req.method === 'GET' && req.url === '/challenge') {
    const nonce = String(req.headers['x-nonce'] || '');
    if (!/^[0-9a-f]{32,128}$/.test(nonce)) {
      refuse(req, res, 400);
      return;
    }
    res.writeHead(200, { 'x-proof': proof(nonce) });
    res.end();
    return;
  }
  if (req.method !== 'POST' || req.url !== '/faces') {
    refuse(req, res, 404);
    return;
  }
  if (!authorized(req)) {
    refuse(req, res, 401);
    return;
  }
  pending.delete(req.socket);
  if (trusted.size >= maxConnections) {
    refuseRead(req, res, 503, { 'retry-after': '1' });
    return;
  }
  trusted.add(req.socket);
  const width = Number(req.headers['x-width']);
  const height = Number(req.headers['x-height']);
  const length = Number(req.headers['content-length']);
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) {
    refuseRead(req, res, 400);
    return;
  }
  if (width > maxSide || height > maxSide || length > width * height * 3) {
    refuseRead(req, res, 413);
    return;
  }
  if (length !== width * height * 3) {
    refuseRead(req, res, 411);
    return;
  }
  if (!ready) {
    refuseRead(req, res, 503, { 'retry-after': '2' });
    return;
  }
  const admitted = admit();
  if (admitted === null) {
    refuseRead(req, res, 503, { 'retry-after': '1' });
    return;
  }
  admitted.then(() => detect(req, res, width, height)).finally(release);
});

server.on('connection', (socket) => {
  if (stopping) {
    socket.destroy();
    return;
  }
  if (pending.size >= maxPending) {
    const oldest = pending.values().next().value;
    pending.delete(oldest);
    oldest.destroy();
  }
  pending.add(socket);
  socket.on('close', () => {
    pending.delete(socket);
    trusted.delete(socket);
  });
});

function detect(req, res, width, height) {
  return new Promise((resolve) => {
    if (req.destroyed) {
      resolve(); // the caller gave up while waiting
      return;
    }
    const body = Buffer.alloc(width * height * 3);
    let size = 0;
    req.on('data', (c) => {
      if (size + c.length <= body.length) {
        c.copy(body, size);
      }
      size += c.length;
    });
    req.on('error', resolve);
    req.on('close', () => { if (!req.complete) resolve(); });
    req.on('end', async () => {
      try {
        if (size !== body.length) {
          refuse(req, res, 400);
          return;
        }
        const t0 = Date.now();
        const out = await faces(body, width, height);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ faces: out, millis: Date.now() - t0 }));
      } catch (e) {
        console.error(JSON.stringify({ msg: 'inference failed', error: String(e && e.message) }));
        refuse(req, res, 500);
      } finally {
        resolve();
      }
    });
  });
}

server.listen(port, host);

// as a container's first process node has no default signal handling: stop taking connections, drop the ones not
// authenticated, let the requests admitted answer, remove the secret's file and leave within the pod's grace period
process.on('exit', removeTokenFile);
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (stopping) {
      return;
    }
    stopping = true;
    const t0 = Date.now();
    console.log(JSON.stringify({ msg: 'face sidecar stopping', signal, inFlight: trusted.size }));
    removeTokenFile();
    const done = () => {
      console.log(JSON.stringify({ msg: 'face sidecar stopped', millis: Date.now() - t0 }));
      process.exit(0);
    };
    server.close(done);
    server.closeIdleConnections();
    for (const socket of pending) {
      if (!socket.requesting) {
        socket.destroy();
      }
    }
    setTimeout(done, Number(process.env.FACE_SIDECAR_STOP_MS || 10000)).unref();
  });
}
start().catch((e) => { console.error(e); process.exit(1); });
