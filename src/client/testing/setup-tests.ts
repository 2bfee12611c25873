import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Testing Library only unmounts on its own when test globals are enabled; they are not here.
afterEach(() => {
  cleanup();
});
