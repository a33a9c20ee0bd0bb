import { readFile, readdir, readlink } from 'node:fs/promises';

/**
 * Which local program holds the other end of a loopback connection, from what Linux publishes in
 * /proc: the socket's row in /proc/net/tcp{,6} gives its owner's uid and inode, and the process whose
 * /proc/PID/fd links to that inode is the peer. On one machine nothing else tells one client from
 * another (every address is 127.0.0.1, ports are ephemeral, every coral client has the same token),
 * and without it one program holding every MCP session locks all others out (issue 39).
 */
export interface LoopbackPeer {
  uid: number;
  /** Absent when the process is not ours to look into (another user's, unless we are root). */
  pid?: number;
}

export interface SocketRow {
  uid: number;
  inode: number;
}

/**
 * The row of /proc/net/tcp{,6} text `table` whose local end is `local` and remote end `remote`
 * (address and port as Node reports them): the client's end of a connection the colony accepted.
 */
export function findSocket(table: string, local: { address: string; port: number }, remote: { address: string; port: number }): SocketRow | null {
  const want = `${endpointKey(local.address, local.port)} ${endpointKey(remote.address, remote.port)}`;
  for (const line of table.split('\n')) {
    const f = line.trim().split(/\s+/);
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
    if (f.length < 10 || !/^\d+:$/.test(f[0])) continue;
    const lo = decodeEndpoint(f[1]);
    const re = decodeEndpoint(f[2]);
    if (!lo || !re || `${lo} ${re}` !== want) continue;
    const uid = Number(f[7]);
    const inode = Number(f[9]);
    if (Number.isInteger(uid) && Number.isInteger(inode) && inode > 0) return { uid, inode };
  }
  return null;
}

/** "address:port" with IPv4-mapped IPv6 addresses written as IPv4, so both tables compare alike. */
function endpointKey(address: string, port: number): string {
  return `${address.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1')}:${port}`;
}

/** A /proc/net/tcp endpoint ("0100007F:1F90", or 32 hex digits for IPv6) as endpointKey writes it. */
function decodeEndpoint(hex: string): string | null {
  const m = /^([0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}):([0-9A-Fa-f]{4})$/.exec(hex);
  if (!m) return null;
  const port = Number.parseInt(m[2], 16);
  // The kernel prints each 32-bit word in host order (little-endian on the machines coral runs on).
  const words = m[1].match(/.{8}/g)!.map((w) => w.match(/../g)!.reverse().map((b) => Number.parseInt(b, 16)));
  if (words.length === 1) return endpointKey(words[0].join('.'), port);
  const bytes = words.flat();
  const isMapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  if (isMapped) return endpointKey(bytes.slice(12).join('.'), port);
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return endpointKey(compressIpv6(groups), port);
}

/** The shortest form of eight hex groups, as Node prints addresses (the longest zero run as "::"). */
function compressIpv6(groups: string[]): string {
  let best = { at: -1, len: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best.len && j - i > 1) best = { at: i, len: j - i };
    i = j;
  }
  if (best.at < 0) return groups.join(':');
  return `${groups.slice(0, best.at).join(':')}::${groups.slice(best.at + best.len).join(':')}`;
}

async function socketRow(local: { address: string; port: number }, remote: { address: string; port: number }): Promise<SocketRow | null> {
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    const row = findSocket(text, local, remote);
    if (row) return row;
  }
  return null;
}

/** Whether process `pid` has a descriptor on socket `inode` (false when it is gone or not ours). */
async function holds(pid: number, inode: number): Promise<boolean> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  const want = `socket:[${inode}]`;
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  return links.includes(want);
}

/**
 * The program at the other end of a loopback connection: `client` is the connection's remote end as
 * the colony sees it (the program's own socket), `server` its local end. `likely` are processes to
 * try first (those holding sessions already), so that a program opening many sessions costs one
 * directory read each, not a walk of every process. Null where /proc says nothing (not Linux, or
 * the connection is gone).
 */
export async function loopbackPeer(client: { address: string; port: number }, server: { address: string; port: number }, likely: readonly number[] = []): Promise<LoopbackPeer | null> {
  const row = await socketRow(client, server);
  if (!row) return null;
  for (const pid of likely) if (await holds(pid, row.inode)) return { uid: row.uid, pid };
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((d) => /^\d+$/.test(d)).map(Number);
  const found = await Promise.all(pids.map(async (pid) => ((await holds(pid, row.inode)) ? pid : null)));
  const pid = found.find((p): p is number => p !== null);
  return pid === undefined ? { uid: row.uid } : { uid: row.uid, pid };
}
