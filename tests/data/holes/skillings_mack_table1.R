# Skillings & Mack (1981) Table 1, p. 173: four methods of assembling a product, nine blocks.
# The statistic as the R package Skillings.Mack 1.10 (R/Ski.Mack.R) computes it, its loops
# written out here (the package is not in Debian; its matrixcalc dependency neither).
library(MASS)
maty <- matrix(
   c(3.2,4.1,3.8,4.2,  3.1,3.9,3.4,4.0,  4.3,3.5,4.6,4.8,
     3.5,3.6,3.9,4.0,  3.6,4.2,3.7,3.9,  4.5,4.7,3.7, NA,
     NA ,4.2,3.4,NA ,  4.3,4.6,4.4,4.9,  3.5, NA,3.7, 3.9), ncol=9, byrow=FALSE)
d <- maty; k <- ncol(d); t <- nrow(d)
r.na <- apply(d, 2, rank, ties.method="average", na.last="keep")
kj <- colSums(!is.na(r.na))
cen <- sweep(r.na, 2, (kj + 1) / 2); cen[is.na(cen)] <- 0
A <- cen %*% sqrt(12 / (kj + 1))
obs <- (!is.na(r.na)) * 1
Cov <- -obs %*% t(obs); diag(Cov) <- 0; diag(Cov) <- -colSums(Cov)
T <- as.numeric(t(A) %*% ginv(Cov) %*% A)
df <- qr(Cov)$rank
cat(sprintf("%.15g %d %.15g\n", T, df, pchisq(T, df, lower.tail=FALSE)))
