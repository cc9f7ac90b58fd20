/**
 * The name a benchmark workspace's data worker is spawned with (Worker `name`). A data worker of
 * that name keeps nothing: it restores no saved dataset and saves none, so a benchmark's files
 * never mix with the user's datasets and end when the workspace is disposed.
 */
export const WORKSPACE_DATA_WORKER = 'dataseer-data-workspace';
