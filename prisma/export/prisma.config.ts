import { serviceConfig } from '../prisma-config.base';

export default serviceConfig('export');
