// The API key form's limits, browser-safe (the form reads them; api-keys.ts enforces them).
export const KEY_NAME_MAX = 100;
