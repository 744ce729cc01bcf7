/**
 * claims.test.ts's tests, each against a team database made by the migrations 001 to 008 of before
 * the squash and then upgraded by today's migrator (decision 85): an upgraded database keeps every
 * rule a fresh one has.
 */
import { useUpgradedTeamDatabases } from '../../../../../support/team-database'
import './claims.test'

useUpgradedTeamDatabases()
