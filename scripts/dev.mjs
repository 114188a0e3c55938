#!/usr/bin/env node
// `npm run dev`: the API server with reload (tsx watch, port API_PORT=3001) and Vite with HMR on PORT (3000),
// which proxies /api, /media and /socket.io to the API.
import { spawn } from 'node:child_process';

const port = process.env.PORT ?? '3000';
const apiPort = process.env.API_PORT ?? '3001';
// No drain on a reload or Ctrl+C (no load balancer in development), unless asked for.
const env = { ...process.env, PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}`, SHUTDOWN_DRAIN_SECONDS: process.env.SHUTDOWN_DRAIN_SECONDS ?? '0' };
const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/index.ts'], { stdio: 'inherit', env: { ...env, PORT: apiPort } }),
  spawn('npx', ['vite', '--config', 'vite.config.ts'], { stdio: 'inherit', env: { ...env, PORT: port, API_PORT: apiPort } }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((c) => c.on('exit', (code) => { stop(); process.exitCode = code ?? 0; }));
