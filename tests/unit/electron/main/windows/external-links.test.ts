import { describe, expect, it } from 'vitest'
import { isAllowedExternalUrl } from '../../../../../electron/main/windows/external-links'

const hosts = ['docs.payoutdesk.example']

describe('external link allow-list', () => {
  it('allows https links to a listed host', () => {
    expect(isAllowedExternalUrl('https://docs.payoutdesk.example/guide?x=1#top', hosts)).toBe(true)
    expect(isAllowedExternalUrl('https://DOCS.payoutdesk.example/', hosts)).toBe(true)
  })

  it('refuses plain http, other schemes and hosts that only look alike', () => {
    for (const url of [
      'http://docs.payoutdesk.example/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://docs.payoutdesk.example/share',
      'https://docs.payoutdesk.example.evil.test/',
      'https://evil.test/docs.payoutdesk.example',
      'https://sub.docs.payoutdesk.example/',
      'https://user:pass@docs.payoutdesk.example/',
      'https://docs.payoutdesk.example:8443/',
      'not a url',
      '',
    ]) {
      expect(isAllowedExternalUrl(url, hosts), url).toBe(false)
    }
  })

  it('has a default list of https hosts only', () => {
    expect(isAllowedExternalUrl('https://payoutdesk.example/')).toBe(true)
    expect(isAllowedExternalUrl('https://example.com/')).toBe(false)
  })
})
