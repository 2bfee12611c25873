import './styles.css';
import { mountApp } from './app/mount-app';
import { readPublicConfig } from './routing/public-config';

const container = document.getElementById('root');
if (container === null) throw new Error('The page has no #root element to mount the app in.');
const embedded = readPublicConfig();
if (embedded) {
  mountApp(container, embedded);
} else {
  // Only Vite's development server serves the page without the server's settings.
  void import('../shared/public-config-defaults').then(({ publicConfigDefaults }) =>
    mountApp(container, publicConfigDefaults),
  );
}
