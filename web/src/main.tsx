import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RelayEnvironmentProvider } from 'react-relay';
import { App } from './App.tsx';
import { createEnvironment } from './relay/environment.ts';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <RelayEnvironmentProvider environment={createEnvironment()}>
      <App />
    </RelayEnvironmentProvider>
  </StrictMode>,
);
