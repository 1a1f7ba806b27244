/**
 * lib/store/leader: one leader per run-once role (lib/store/leader/README.md). Not a port of the
 * Store: leadership holds a session advisory lock on a connection of its own, opened from the
 * database URL, so it outlives no store and shares no pool.
 */
import 'server-only';

export {
  LEADER_LOCK_CLASS,
  LEADER_ROLES,
  type LeaderRole,
  type LeaderStatus,
  type Leadership,
  type LeaderWork,
  lead,
  leadRole,
} from './leader';
