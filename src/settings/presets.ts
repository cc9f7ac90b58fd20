/** The providers offered in Settings (see workers/protocol/endpointPresets.ts). */
export { ENDPOINT_PRESETS as PRESETS, presetFor } from '../../workers/protocol/endpointPresets';
