import { StrictMode } from 'react';
import { App } from './App.tsx';
import { renderInSlices } from './lib/renderInSlices.ts';
import { applyStoredTheme } from './lib/theme.ts';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

applyStoredTheme();

renderInSlices(
  root,
  <StrictMode>
    <App />
  </StrictMode>,
);
