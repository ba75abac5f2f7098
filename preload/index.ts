import { contextBridge, ipcRenderer } from 'electron';
import { buildLemmingApi, createEventHub } from '../engine/api/client';
import { EVENT_CHANNEL } from '../engine/api/events';

const events = createEventHub();
ipcRenderer.on(EVENT_CHANNEL, (_event, message: unknown) => events.deliver(message));

contextBridge.exposeInMainWorld(
  'lemming',
  buildLemmingApi((channel, input) => ipcRenderer.invoke(channel, input), events.subscribe),
);
