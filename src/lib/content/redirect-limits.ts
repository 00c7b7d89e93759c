// The sizes a redirect's fields may have: the form's maxlength and the store's check say the
// same. Shared by server and browser code: nothing here may import server-only modules.

/** Longer than any address a site has had; a longer one is a mistake or an attack. */
export const REDIRECT_FROM_MAX = 500;
export const REDIRECT_TO_MAX = 2000;
