/** The migrator's refusal: the database and this copy of the app disagree about the schema, or the role cannot migrate. */
export class MigrationRefused extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MigrationRefused'
  }
}
