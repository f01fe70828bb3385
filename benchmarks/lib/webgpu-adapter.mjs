#!/usr/bin/env node
// Prints one JSON line: the WebGPU adapter rlx's 'webgpu' device starts on
// here (dist/, the same attempts in the same order: RLX_WEBGPU_BACKEND, else
// Dawn's default backend when a Vulkan driver is installed, then OpenGL ES),
// and whether it is a software rasterizer (Mesa llvmpipe / lavapipe /
// softpipe, SwiftShader, WARP):
//   { available: true, backend, vendor, architecture, device, description, software, maxBufferSize, maxStorageBufferBindingSize }
//   { available: false, reason }
// Run by benchmarks/suites/webgpu.mjs (in a child, so the harness process
// holds no GPU context) and by benchmarks/gpu.sh. Exit status 0 either way.

import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';

const here = dirname(fileURLToPath(import.meta.url));
const DEVICE_JS = resolve(here, '../../dist/backends/webgpu/device.js');
const SOFTWARE = /llvmpipe|lavapipe|softpipe|swiftshader|microsoft basic render|\bwarp\b|software/i;

/** Whether an adapter description names a software rasterizer. */
export function isSoftware(info) {
  return SOFTWARE.test([info.vendor, info.architecture, info.device, info.description].join(' '));
}

/** The adapter as a child process sees it (starts Dawn there, not in this process). */
export function probeAdapter(timeoutMs = 90_000) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], { encoding: 'utf8', timeout: timeoutMs });
  const line = (r.stdout || '').trim().split('\n').filter((l) => l.startsWith('{')).at(-1);
  if (r.error || !line) return { available: false, reason: `the adapter probe failed (${r.error?.code ?? `exit ${r.status ?? r.signal}`}: ${(r.stderr || '').trim().slice(-300)})` };
  return JSON.parse(line);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let out;
  try {
    const { webgpuStatus } = await import(pathToFileURL(DEVICE_JS).href);
    const s = webgpuStatus();
    if (!s.available) out = { available: false, reason: s.reason };
    else {
      const { backend, vendor, architecture, device, description, limits } = s.info;
      out = {
        available: true,
        backend,
        vendor,
        architecture,
        device,
        description,
        software: isSoftware(s.info),
        maxBufferSize: limits.maxBufferSize,
        maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
      };
    }
  } catch (e) {
    out = { available: false, reason: `${DEVICE_JS} did not load (${String(e?.message ?? e).split('\n')[0]}): run npm run build` };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
}
