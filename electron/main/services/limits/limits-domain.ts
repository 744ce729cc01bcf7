/**
 * The limits channels (decisions 127, 128): the active profile's controls as Settings shows them,
 * and their changes, each recorded with the computer's user and the time.
 */
import { userInfo } from 'node:os'
import { CHANGES_SHOWN, type DeskControlsView } from '../../../../shared/limits/desk-controls'
import { systemTimeZone } from '../../../../shared/limits/payout-limits'
import type { limitChannels } from '../../../../shared/ipc/channels/limits'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'
import type { ControlsStore, ProfileControls } from './controls-store'

/** The computer's user: who changed a limit on this desk. */
function computerUser(): string {
  try {
    return userInfo().username
  } catch {
    return process.env['USER'] ?? process.env['USERNAME'] ?? 'unknown user'
  }
}

export function createLimitsDomain(
  context: Pick<ServiceContext, 'profiles'>,
  controls: ControlsStore,
  options: { actor?: () => string } = {},
): DomainService<keyof typeof limitChannels> {
  const actor = options.actor ?? computerUser

  async function active(): Promise<{ id: string; name: string }> {
    const { activeId, profiles } = await context.profiles.list()
    const profile = profiles.find((each) => each.id === activeId)
    return { id: activeId, name: profile?.name ?? activeId }
  }

  function viewOf(profile: { id: string; name: string }, kept: ProfileControls): DeskControlsView {
    return {
      profileId: profile.id,
      profileName: profile.name,
      limits: kept.limits,
      payeeChecks: kept.payeeChecks,
      changes: kept.changes.slice(-CHANGES_SHOWN).reverse(),
      changesRecorded: kept.changes.length,
      systemTimeZone: systemTimeZone(),
    }
  }

  return {
    handlers: {
      'limits:get': async () => {
        const profile = await active()
        return viewOf(profile, controls.of(profile.id))
      },
      'limits:set': async ({ limits }) => {
        const profile = await active()
        return viewOf(profile, await controls.setLimits(profile.id, limits, actor()))
      },
      'limits:setPayeeChecks': async ({ payeeChecks }) => {
        const profile = await active()
        return viewOf(profile, await controls.setPayeeChecks(profile.id, payeeChecks, actor()))
      },
    },
  }
}
