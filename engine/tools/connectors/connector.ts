// The shapes live in the IPC contract, which the Tool Store shows them through; one definition serves both.
export {
  ConnectorConfigLocation,
  ConnectorPermission,
  ConnectorReadiness,
  ConnectorSecret,
  CatalogConnector as Connector,
} from '../../api/tool-schemas';
