// The offer of text this browser kept from an earlier visit that was never saved: put it back
// in the form, or discard it.
import { LocalTime } from '../local-time';
import type { Backup } from './use-draft-recovery';

export function BackupNotice({
  backup,
  onPutBack,
  onDiscard,
}: {
  backup: Backup;
  onPutBack: () => void;
  onDiscard: () => void;
}) {
  return (
    <div className="notice-box" role="alert">
      Text you typed on <LocalTime iso={backup.at} /> was not saved; this browser kept it.{' '}
      <button type="button" onClick={onPutBack}>
        Put it back
      </button>{' '}
      <button type="button" onClick={onDiscard}>
        Discard it
      </button>
    </div>
  );
}
