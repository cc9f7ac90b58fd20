// Peak resident memory of processes this bench started, per step (Linux /proc). Writing "5" to a
// process's clear_refs resets its peak (VmHWM) to what it holds now, so reading VmHWM after a step
// gives that step's peak rather than the peak since the process began. The machine is shared:
// only this node process's own descendants are read, never another user's browser.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const linux = process.platform === 'linux';

/** pid → parent pid, for every process we can read. */
function parents() {
  const map = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      // The command name may hold spaces and parentheses: the fields start after the last ')'.
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      map.set(Number(d), ppid);
    } catch {
      // The process ended while we looked.
    }
  }
  return map;
}

function descendantsOf(root) {
  const map = parents();
  const out = [];
  for (const pid of map.keys()) {
    for (let p = map.get(pid); p !== undefined && p > 1; p = map.get(p)) {
      if (p === root) {
        out.push(pid);
        break;
      }
    }
  }
  return out;
}

/** Chromium renderer processes started from this node process (the tab's page and its workers). */
export function ourRenderers() {
  if (!linux) return [];
  return descendantsOf(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer');
    } catch {
      return false;
    }
  });
}

/** Resets the peak of each process to its current resident size (our own processes only). */
export function resetPeaks(pids) {
  for (const pid of pids) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      // Gone, or not ours to reset: its peak then runs from its start, which only overstates.
    }
  }
}

/** The highest peak resident memory (VmHWM) among `pids`, in MB; null where none could be read. */
export function peakMB(pids) {
  let peak = null;
  for (const pid of pids) {
    try {
      const kb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
      if (Number.isFinite(kb)) peak = Math.max(peak ?? 0, kb / 1024);
    } catch {
      // The process ended while we looked.
    }
  }
  return peak === null ? null : Math.round(peak);
}

/** MemAvailable in bytes (what the kernel could hand out now), or null off Linux. */
export function memAvailableBytes() {
  if (!linux) return null;
  const kb = Number(/MemAvailable:\s+(\d+) kB/.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1]);
  return Number.isFinite(kb) ? kb * 1024 : null;
}
