'use server';
// Owns the link dialog's page search (the body editor's Link, Ctrl/Cmd+K): the site's published
// pages whose text matches what was typed, by title, at most LINK_TARGETS — the navigation
// picker's bounded search (page-list.ts), so it costs the same at 100 000 pages as at ten.
import { z } from 'zod';
import { contentStore } from '../../content/content';
import { publicPath } from '../../http/routes';
import { editorCall, readCall } from '../action';

/** Enough to choose from while typing; a longer list is a search still too broad. */
const LINK_TARGETS = 10;

const linkTargetsSchema = z.object({ text: z.string().max(200) });

export type LinkTarget = { title: string; path: string };
export type LinkTargets = { pages: LinkTarget[] } | { error: string };

export const findLinkTargets = editorCall({
  read: (input) => readCall(linkTargetsSchema, input, 'This action takes the text to search for.'),
  // Reads published pages' titles and addresses, what any signed-in person may see.
  may: () => [],
  refused: (_input, { message }): LinkTargets => ({ error: message }),
  run: async ({ text }): Promise<LinkTargets> => {
    const found = await contentStore().findPublishedPages(text);
    return {
      pages: found
        .slice(0, LINK_TARGETS)
        .map((page) => ({ title: page.title, path: publicPath(page.slug) })),
    };
  },
});
