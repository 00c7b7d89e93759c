// Owns how Folio asks the build whether a server action call is real before Waku runs it: the
// build's action table and React's own decoders, reached through @vitejs/plugin-rsc (Waku's
// bundler plugin). Not a stable API: on a Waku or plugin upgrade, review this with internals.ts.
// The HTTP decision (which verdict, which status) stays in src/lib/http/middleware/actions.ts.
import 'server-only';

/** How a call is judged: the build's actions, and React's own decoders. */
export type ServerActions = {
  /** Whether the build has the action `id` (`<module>#<export>`). */
  exists: (id: string) => Promise<boolean>;
  /** Whether a JavaScript call's body decodes to an argument list. */
  decodesAsArguments: (body: string | FormData) => Promise<boolean>;
  /** Whether a form posted without JavaScript decodes to a callable action. */
  decodesAsFormAction: (form: FormData) => Promise<boolean>;
};

/** How React marks the functions a 'use server' module exports. */
const SERVER_REFERENCE = Symbol.for('react.server.reference');

/** The real thing, inside Waku's server bundle (imported on first use: it exists only there). */
export const serverActionsOfThisBuild: ServerActions = {
  async exists(id) {
    const { loadServerAction } = await import('@vitejs/plugin-rsc/rsc/server');
    try {
      // Typed as a Function, but it is whatever the module has under that name, if anything;
      // only one of its own exports registered with React is an action (not `constructor`).
      const action: unknown = await loadServerAction(id);
      return (
        typeof action === 'function' &&
        (action as { $$typeof?: unknown }).$$typeof === SERVER_REFERENCE
      );
    } catch {
      // An unknown module: the bundle's reference table has no such id.
      return false;
    }
  },
  async decodesAsArguments(body) {
    const { decodeReply, createTemporaryReferenceSet } = await import(
      '@vitejs/plugin-rsc/rsc/server'
    );
    try {
      const args: unknown = await decodeReply(body, {
        temporaryReferences: createTemporaryReferenceSet(),
      });
      return Array.isArray(args);
    } catch {
      return false;
    }
  },
  async decodesAsFormAction(form) {
    const { decodeAction } = await import('@vitejs/plugin-rsc/rsc/server');
    try {
      return typeof (await decodeAction(form)) === 'function';
    } catch {
      return false;
    }
  },
};
