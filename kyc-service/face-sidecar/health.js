'use strict';
// The container's probe: the sidecar listens on 127.0.0.1 only, which the kubelet cannot reach, so the probe runs
// inside the container. Exit 0 when /health answers 200 (models loaded).
const port = Number(process.env.FACE_SIDECAR_PORT || 8091);
require('http').get({ host: '127.0.0.1', port, path: '/health', timeout: 2000 }, (res) => process.exit(res.statusCode === 200 ? 0 : 1))
  .on('error', () => process.exit(1))
  .on('timeout', () => process.exit(1));
