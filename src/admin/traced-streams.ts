import type { AdminHostView } from './admin-host-view.js';

/** A traced conversation as the traces page lists it: by its name, with the platform and chat type. */
export interface TracedStreamEntry {
  streamId: string;
  /** The group's or the person's name; the id's start when the stream is not stored. */
  name: string;
  platform: string | null;
  chatType: 'private' | 'group' | null;
  turns: number;
  lastAt: number;
}

/** A stream's name for people: the group's or the person's name (or id); the id's start when it is not stored. */
export function streamName(view: AdminHostView, streamId: string): string {
  const stream = view.database.streams.get(streamId);
  const name = stream === undefined ? null : stream.chatType === 'group' ? (stream.groupName ?? stream.groupId) : (stream.userName ?? stream.userId);
  return name ?? streamId.slice(0, 12);
}

/** The traced conversations, newest activity first, named from the stored streams. */
export function tracedStreams(view: AdminHostView): TracedStreamEntry[] {
  return view.traces.streams().map((entry) => {
    const stream = view.database.streams.get(entry.streamId);
    return { ...entry, name: streamName(view, entry.streamId), platform: stream?.platform ?? null, chatType: stream?.chatType ?? null };
  });
}
