// Loaded only by page views sampled for tracing: page-load and navigation spans, Web Vitals,
// trace headers on same-origin requests, and breadcrumbs that give those traces context.
import { breadcrumbsIntegration, browserTracingIntegration } from '@sentry/react';

export function tracingIntegrations() {
  return [browserTracingIntegration(), breadcrumbsIntegration()];
}
