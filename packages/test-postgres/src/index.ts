export {
  findPostgresBinaries,
  postgresBinariesChoice,
  startThrowawayCluster,
  type PostgresBinaries,
  type PostgresBinariesChoice,
  type ThrowawayCluster,
  type ThrowawayClusterOptions,
} from './throwaway-cluster.js';
