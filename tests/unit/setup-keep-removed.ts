/** In every unit-test worker: what a test removes under the run's scan root is kept for the final scan. */
import { keepRemovedFiles } from '../scan/keep-removed'

keepRemovedFiles()
