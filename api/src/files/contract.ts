// What GET /api/files/conflicts answers, as the API gives it and the web's upload and import
// dialogs read it (web/src/uploads/conflicts.ts imports this type), so the two cannot drift apart.
// Nothing here imports anything that runs: the web's compiler reads this file.

/** A name already taken in the folder. */
export interface NameConflictJson {
  /** The name asked about. */
  name: string;
  /** The viewer's file of that name in the folder (the file as GET /api/files/{id} gives it). */
  existing: { id: string; name: string };
  /** What keepBoth would call the upload if it were filed now. */
  keepBothName: string;
}
