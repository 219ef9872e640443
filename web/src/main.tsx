import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { applyStoredTheme } from './lib/theme.ts';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

applyStoredTheme();

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
