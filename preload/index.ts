import { contextBridge, ipcRenderer } from 'electron';
import { buildLemmingApi } from '../engine/api/client';

contextBridge.exposeInMainWorld(
  'lemming',
  buildLemmingApi((channel, input) => ipcRenderer.invoke(channel, input)),
);
