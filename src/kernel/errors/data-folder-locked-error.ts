import { MoonglassError } from './moonglass-error.js';

export interface DataFolderLockedErrorOptions {
  /** The lock file that names the holder. */
  lockFile: string;
  /** Host name the holder runs on, as it wrote it in the lock. */
  hostname?: string | undefined;
  /** When the holder took the lock (ISO 8601), as it wrote it. */
  startedAt?: string | undefined;
  /** The holder is this very process (a database in the folder is already open here). */
  heldByThisProcess?: boolean;
  /** The error that led to this one, kept as the standard `cause`. */
  cause?: unknown;
}

/**
 * A second host was started on a data folder that a running host holds. Names the folder and
 * the holder's process id, and says how to get going: stop that host, or use another folder.
 */
export class DataFolderLockedError extends MoonglassError {
  /** The data folder (absolute when the host was given an absolute path). */
  readonly folder: string;
  /** Process id of the host that holds the folder. */
  readonly pid: number;
  /** The lock file that names the holder; delete it only when no such host is running. */
  readonly lockFile: string;
  /** Host name the holder runs on, as it wrote it in the lock; undefined when not written. */
  readonly hostname: string | undefined;
  /** When the holder took the lock (ISO 8601), as it wrote it; undefined when not written. */
  readonly startedAt: string | undefined;

  constructor(folder: string, pid: number, options: DataFolderLockedErrorOptions) {
    const { lockFile, hostname, startedAt, heldByThisProcess = false } = options;
    const holder = heldByThisProcess
      ? `this process (pid ${pid}) already has its database open; close that first`
      : `another moonglass host, process ${pid}${hostname === undefined ? '' : ` on ${hostname}`}` +
        `${startedAt === undefined ? '' : ` (running since ${startedAt})`}; stop it first or start this one with another --data-dir. ` +
        `If no such host is running, delete ${lockFile}`;
    super('MG_DATA_FOLDER_LOCKED', `data folder ${folder} is in use by ${holder}`, options.cause === undefined ? {} : { cause: options.cause });
    this.folder = folder;
    this.pid = pid;
    this.lockFile = lockFile;
    this.hostname = hostname;
    this.startedAt = startedAt;
  }
}
