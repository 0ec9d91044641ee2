// The public booking page at {publicUrl}/s/<code>: filled in with bookings.
import type { Route } from './server.js';

export const pageRoutes: Route[] = [];
