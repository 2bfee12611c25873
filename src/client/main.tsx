import './styles.css';
import { mountApp } from './app/mount-app';

const container = document.getElementById('root');
if (container === null) throw new Error('The page has no #root element to mount the app in.');
mountApp(container);
