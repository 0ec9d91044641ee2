// Sandbox-only control endpoints (booking, cancelling, rescheduling): filled in with bookings.
import type { Route } from './server.js';

export const controlRoutes: Route[] = [];
