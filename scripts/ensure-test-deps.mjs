#!/usr/bin/env node
// Installs what the browser tests need: Debian's Chromium (never a downloaded browser build).
import fs from 'node:fs';
import { execSync } from 'node:child_process';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return CHROMIUM;
  console.log('Instaliram Debian chromium za browser testove...');
  const sudo = process.getuid && process.getuid() === 0 ? '' : 'sudo ';
  execSync(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`, { stdio: 'inherit' });
  if (!fs.existsSync(CHROMIUM)) throw new Error(`chromium nije pronađen na ${CHROMIUM}`);
  return CHROMIUM;
}

if (import.meta.url === `file://${process.argv[1]}`) ensureChromium();
