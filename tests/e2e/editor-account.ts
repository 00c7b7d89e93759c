// The one editor account the e2e suite signs in as: made by global-setup.ts before the workers
// start, used by the fixtures (which must not import Playwright's test runner into the setup).
export const E2E_EDITOR = {
  email: 'e2e-editor@example.com',
  password: 'e2e correct horse battery',
};
