// The ordered list of schema migrations; add a numbered file and append it here.
import { migration001 } from './001-initial';

export type Migration = { id: number; name: string; sql: string };

export const migrations: readonly Migration[] = [migration001];
