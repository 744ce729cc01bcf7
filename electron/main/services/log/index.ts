/** The log's public face (decision 094): main's masking log as other services are given it. */
export type { AppLog } from './redacting-log'
