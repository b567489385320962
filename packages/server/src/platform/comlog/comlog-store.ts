/** The communication log's port (docs/comlog.md). */
import type {
  ComRecordChange,
  ComRecordFilter,
  ComRecordPage,
  StoredComRecord,
} from './com-record.js'

/**
 * The communication log: the records of the calls each directory user took part in (docs/comlog.md).
 * Records are appended by the CallStore with the call's end (`saveWithRecords`); this port reads and
 * changes them. Every operation acts on one user's records only.
 */
export interface ComlogStore {
  /** One page of the user's records matching `filter`, newest first, with the count of all that match. */
  findRecords(
    loginName: string,
    filter: ComRecordFilter,
    page: { offset: number; limit: number },
  ): Promise<ComRecordPage>
  /** The user's record with this id; undefined when the user has none with it. */
  findRecord(loginName: string, recordId: number): Promise<StoredComRecord | undefined>
  /**
   * Sets the acknowledged flag of those of the user's records among `recordIds` whose flag differs; returns
   * the records it changed.
   */
  acknowledge(
    loginName: string,
    recordIds: readonly number[],
    acknowledged: boolean,
  ): Promise<ComRecordChange[]>
  /** Deletes those of the user's records among `recordIds`; returns the records deleted. */
  deleteRecords(loginName: string, recordIds: readonly number[]): Promise<ComRecordChange[]>
  /** Deletes the user's records matching `filter`; returns the records deleted. */
  deleteMatching(loginName: string, filter: ComRecordFilter): Promise<ComRecordChange[]>
  /** How many of the user's records are missed calls not acknowledged (the event summary's counter). */
  countUnacknowledgedMissed(loginName: string): Promise<number>
}
